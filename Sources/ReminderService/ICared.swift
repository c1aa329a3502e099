import Glibc
import SystemdKit
import FileKit
import Localization
import ReminderCore
import Sound
import ICareFiles

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
        do {
            // One icared per person: while another keeps the schedule, this one defers (Standby).
            let lock = try? openLock(paths, log)
            var predecessor: Standby?
            if let lock, try !lock.tryLock() {
                let standby = Standby(loop: try EventLoop(), log: log, lock: lock, paths: paths)
                switch standby.run() {
                case .exit(let code): return code
                case .takeOver: predecessor = standby
                }
            }
            do { try lock?.write(Holder.current()) } catch { log.warning("Cannot say in \(error.path) which icared keeps the schedule: \(error)") }
            let daemon = Daemon(loop: try EventLoop(), log: log, paths: paths, timeScale: timeScale)
            daemon.onNameOwned = { predecessor?.close() }
            return withExtendedLifetime(lock) { daemon.run() }
        } catch {
            log.error("Could not start: \(error)")
            return 1
        }
    }

    /// The lock that keeps one icared per person; without it (a state folder
    /// that cannot hold it) icared runs as before it, saying so.
    private static func openLock(_ paths: XDGPaths, _ log: Log) throws(FileError) -> InstanceLock {
        do {
            return try InstanceLock(paths: paths)
        } catch {
            log.warning("Cannot lock \(error.path) (\(error)): a second icared for the same folders would not know of this one.")
            throw error
        }
    }

    static func out(_ s: String) { _ = s.withCString { write(1, $0, strlen($0)) } }
    static func err(_ s: String) { _ = s.withCString { write(2, $0, strlen($0)) } }
}
