import Glibc
import SystemdKit
import Localization

/// The program: parse, validate, run, and map every error to its exit
/// status and sentence in one place.
public enum CLI {
    /// Runs `icarectl` with `arguments` (without the program name); returns the exit status.
    public static func main(_ arguments: [String], environment: [String: String] = CLI.environment()) -> Int32 {
        Localization.setUp()
        let invocation: Invocation
        do {
            invocation = try ArgumentParser.parse(arguments)
        } catch {
            return report(error)
        }
        var context = RunContext(environment: environment)
        context.style = Style.decide(noColorFlag: invocation.noColor, environment: environment, isTerminal: context.out.isTerminal)
        do {
            return try run(invocation.command, context: context)
        } catch {
            return report(error)
        }
    }

    static func run(_ command: Command, context: RunContext) throws(CLIError) -> Int32 {
        switch command {
        case .help(let name):
            context.out.write(name.flatMap(CommandTable.command).map(HelpText.command) ?? HelpText.overview())
        case .version:
            context.out.write("icarectl \(CommandTable.version)\n")
        case .completionScript(let shell):
            context.out.write(Completions.script(for: shell))
        case .manual:
            context.out.write(ManPage.render())
        case .status(let options) where options.follow:
            return try FollowSession(context: context, format: options.format).run()
        case .watch:
            return try WatchSession(context: context).run()
        case .monitor(let json):
            return try MonitorSession(context: context, json: json).run()
        default:
            try Runner(context: context, proxy: ReminderProxy(loop: try EventLoop.forCLI())).run(command)
        }
        return ExitStatus.ok
    }

    /// Prints the error: a usage error with the command's usage, a failure as its sentence.
    static func report(_ error: CLIError) -> Int32 {
        switch error {
        case .usage(let message, let command):
            Output.error.write(tr("Error: %s", message) + "\n" + HelpText.usageHint(for: command))
        case .failure(let message):
            Output.error.write(message + "\n")
        }
        return ExitStatus.of(error)
    }

    /// The process environment (environ), without Foundation.
    public static func environment() -> [String: String] {
        var env: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return env
    }
}
