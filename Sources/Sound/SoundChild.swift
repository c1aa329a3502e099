internal import CCanberra
import Glibc

/// What became of one sound.
public enum SoundOutcome: Equatable, Sendable {
    /// Played to its end.
    case played
    /// libcanberra (or its Pulse backend) is not installed.
    case noLibrary(String)
    /// No sound server took the connection (none running, or it refused).
    case noServer(String)
    /// The sound theme has no such sound (no theme file).
    case notFound(String)
    /// The server went away (or failed) while the sound played.
    case interrupted(String)
    /// The sound did not finish in time (a server that hangs); its process was killed.
    case timedOut
    /// The sound's process ended otherwise (a signal, an unknown status).
    case failed(String)

    /// The exit status of `icared --play-sound` for this outcome.
    var status: Int32 {
        switch self {
        case .played: return 0
        case .noLibrary: return 10
        case .noServer: return 11
        case .notFound: return 12
        case .interrupted: return 13
        case .timedOut: return 14
        case .failed: return 15
        }
    }

    /// The outcome an exit status and the process's one line of detail stand for.
    init(status: Int32, detail: String) {
        switch status {
        case 0: self = .played
        case 10: self = .noLibrary(detail)
        case 11: self = .noServer(detail)
        case 12: self = .notFound(detail)
        case 13: self = .interrupted(detail)
        case 14: self = .timedOut
        default: self = .failed(detail.isEmpty ? "exit status \(status)" : detail)
        }
    }
}

/// `icared --play-sound NAME THEME`: the short-lived process that plays one
/// sound and exits. libcanberra's Pulse backend connects and waits for its
/// stream synchronously, and a server that hangs would hang whoever called
/// it; the Pulse client library, once loaded, stays for good (NODELETE).
/// In a process of its own, the service's loop never waits, its memory
/// never grows, and a sound that hangs is killed. The outcome is the exit
/// status (`SoundOutcome.status`) with one line of detail on stdout.
public enum SoundChild {
    /// The option that makes `icared` play a sound instead of serving.
    public static let option = "--play-sound"
    /// How long a sound may take from the play call to its end (bell and complete last 1–2 s).
    static let finishLimit: Int = 10

    /// Plays `name` from `theme` through the Pulse server; returns the exit status.
    public static func run(name: String, theme: String) -> Int32 {
        _ = icare_die_with_parent()
        // Never outlive a hang by much, even if the service missed it.
        alarm(UInt32(finishLimit + 5))
        let outcome = play(name: name, theme: theme)
        switch outcome {
        case .played: break
        case .noLibrary(let why), .noServer(let why), .notFound(let why), .interrupted(let why), .failed(let why):
            _ = (why + "\n").withCString { write(1, $0, strlen($0)) }
        case .timedOut: break
        }
        return outcome.status
    }

    /// Posted by canberra's finish callback (on libpulse's thread); `finishError` is written before.
    nonisolated(unsafe) private static let finished: UnsafeMutablePointer<sem_t> = {
        let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
        return semaphore
    }()
    nonisolated(unsafe) private static var finishError: Int32 = 0

    private static func play(name: String, theme: String) -> SoundOutcome {
        let (opened, why) = Canberra.open()
        guard let canberra = opened else { return .noLibrary(why) }
        var context: OpaquePointer?
        guard canberra.contextCreate(&context) == 0, let context else { return .noLibrary("no canberra context") }
        defer { _ = canberra.contextDestroy(context) }
        // Pulse only (PipeWire's pipewire-pulse or PulseAudio): the desktop's volumes and role rules apply there.
        var code = canberra.contextSetDriver(context, "pulse")
        if code == 0, let props = canberra.list([(Canberra.applicationName, "iCare"), (Canberra.applicationID, "org.icare.Reminder"),
                                                 (Canberra.applicationIcon, "org.icare.Reminder")]) {
            _ = canberra.contextChangeProps(context, props)
            _ = canberra.listDestroy(props)
        }
        if code == 0 { code = canberra.contextOpen(context) }
        // No such driver: libcanberra-pulse is not installed.
        guard code != Canberra.noDriver else { return .noLibrary("libcanberra-pulse: " + canberra.describe(code)) }
        guard code == 0 else { return .noServer(canberra.describe(code)) }
        guard let props = canberra.list([(Canberra.eventID, name), (Canberra.role, "event"), (Canberra.themeName, theme),
                                         (Canberra.cacheControl, "never")]) else { return .noLibrary("no property list") }
        defer { _ = canberra.listDestroy(props) }
        code = canberra.contextPlay(context, 1, props, { _, _, error, _ in
            SoundChild.finishError = error
            sem_post(SoundChild.finished)
        }, nil)
        guard code == 0 else { return code == Canberra.notFound ? .notFound(canberra.describe(code)) : .noServer(canberra.describe(code)) }
        var limit = timespec()
        clock_gettime(CLOCK_REALTIME, &limit)
        limit.tv_sec += finishLimit
        while sem_timedwait(finished, &limit) != 0 {
            guard errno == EINTR else { return .timedOut }
        }
        switch finishError {
        case 0: return .played
        case Canberra.notFound: return .notFound(canberra.describe(finishError))
        default: return .interrupted(canberra.describe(finishError))
        }
    }
}
