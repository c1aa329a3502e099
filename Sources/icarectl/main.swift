import Glibc
import ICareCLI

exit(CLI.main(Array(CommandLine.arguments.dropFirst())))
