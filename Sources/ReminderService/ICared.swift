import Glibc
import SystemdKit
import FileKit
import Localization
import ReminderCore
import Sound

/// `icared`'s command line: arguments in, exit status out. Kept out of
/// `main.swift` so no C callback is ever created in a MainActor context.
public enum ICared {
    /// Runs the service; returns the process exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        // The service's own short-lived process for one sound (Sound's SoundChild); not for people.
        if arguments.count == 4, arguments[1] == SoundChild.option {
            return SoundChild.run(name: arguments[2], theme: arguments[3])
        }
        Localization.setUp()
        var logStderr = false
        var debug = false
        var timeScale = TimeScale.real
        if let value = getenv("ICARE_TIME_SCALE").map({ String(cString: $0) }), !value.isEmpty {
            guard let scale = TimeScale(parsing: value) else {
                err(Texts.badTimeScale(option: "ICARE_TIME_SCALE", value: value) + "\n")
                return 64
            }
            timeScale = scale
        }
        var rest = arguments.dropFirst()
        while let arg = rest.popFirst() {
            if arg == "--time-scale" || arg.hasPrefix("--time-scale=") {
                let value = arg == "--time-scale" ? rest.popFirst() : String(arg.dropFirst("--time-scale=".count))
                guard let value, let scale = TimeScale(parsing: value) else {
                    err(Texts.badTimeScale(option: "--time-scale", value: value) + "\n")
                    return 64
                }
                timeScale = scale
                continue
            }
            switch arg {
            case "--help", "-h":
                out(Texts.usage)
                return 0
            case "--version":
                out("icared \(Daemon.version)\n")
                return 0
            case "--log-stderr": logStderr = true
            case "--debug": debug = true
            default:
                err(Texts.unknownOption(arg) + "\n")
                return 64
            }
        }
        let log = Log(identifier: "icared", forceStderr: logStderr, threshold: debug ? .debug : .info)
        let paths: XDGPaths
        do {
            paths = try XDGPaths.fromProcessEnvironment()
        } catch {
            log.error("\(error)")
            return 1
        }
        let loop: EventLoop
        do {
            loop = try EventLoop()
        } catch {
            log.error("Could not create the event loop: \(error)")
            return 1
        }
        return Daemon(loop: loop, log: log, paths: paths, timeScale: timeScale).run()
    }

    static func out(_ s: String) { _ = s.withCString { write(1, $0, strlen($0)) } }
    static func err(_ s: String) { _ = s.withCString { write(2, $0, strlen($0)) } }
}
