import Glibc
import ReminderService

exit(ICared.main(CommandLine.arguments))
