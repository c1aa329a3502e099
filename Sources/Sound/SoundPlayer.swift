import Glibc
import SystemdKit

/// Plays event sounds through libcanberra, one at a time, without ever
/// blocking the loop: each sound is a short-lived process of its own
/// (`SoundChild`, `SoundProcess`) whose exit the loop hears through a
/// pidfd; nothing of libcanberra or the sound server's client library is
/// ever loaded into the service. While idle nothing is loaded, connected,
/// running or watched.
///
/// Problems (no libcanberra, no sound server, no such sound in the theme,
/// a server that went away mid-sound or hangs) are each logged once; the
/// schedule never waits for a sound. A sound that has not finished after
/// `hangLimit` (a server that hangs) is killed; until then later sounds
/// are dropped.
public final class SoundPlayer {
    /// How long a sound's process may run before it is killed, in µs (bell and complete last 1–2 s).
    static let hangLimit: UInt64 = 5_000_000

    private let loop: EventLoop
    private let log: Log
    private var job: SoundProcess?
    private var killed = false
    private var wakeWatch: EventSource?
    private var hangTimer: EventSource?
    private var said: Set<String> = []
    /// The program that plays one sound: the service's own binary (`--play-sound`); tests give another.
    public var executable = "/proc/self/exe"
    /// Called with each finished sound's outcome (after the log line).
    public var onFinished: ((String, SoundOutcome) -> Void)?

    public init(loop: EventLoop, log: Log) {
        self.loop = loop
        self.log = log
    }

    /// Whether a sound is under way (its process has not ended yet).
    public var playing: Bool { job != nil }

    /// Plays the sound theme's `name` (e.g. `complete`) from `theme` (falling back to freedesktop's).
    public func play(_ name: String, theme: String) {
        guard job == nil else {
            log.debug("Sound: \(name) not played; the last sound has not finished yet.")
            return
        }
        let (spawned, why) = SoundProcess.spawn(executable, name: name, theme: theme)
        guard let job = spawned else { return problem("process", why) }
        self.job = job
        killed = false
        do {
            wakeWatch = try loop.addIO(fd: job.exitFD, events: IOEvents.readable.rawValue) { [unowned self] _ in self.finished() }
            let limit = loop.now(.monotonic) + Self.hangLimit
            hangTimer = try loop.addTimer(clock: .monotonic, at: limit, accuracy: 100_000) { [unowned self] in self.hanging() }
        } catch {
            // Without a watch its exit would go unheard: stop it now.
            kill(job.pid, SIGKILL)
            var status: Int32 = 0
            waitpid(job.pid, &status, 0)
            cancelSources()
            self.job = nil
            problem("process", "cannot watch the sound's process (\(error))")
        }
    }

    private func finished() {
        guard let job else { return }
        let outcome = job.outcome(killed: killed)
        cancelSources()
        self.job = nil
        switch outcome {
        case .played:
            log.debug("Sound: played \(job.name).")
        case .noLibrary(let why):
            problem("library", "libcanberra could not be loaded (\(why)); install libcanberra0 and libcanberra-pulse")
        case .noServer(let why):
            problem("server", "no sound server took the sound (\(why)); a PulseAudio server (pipewire-pulse or pulseaudio) plays it")
        case .notFound(let why):
            problem("theme", "the sound theme has no \(job.name) (\(why)); install sound-theme-freedesktop")
        case .interrupted(let why):
            problem("interrupted", "the sound server stopped the sound (\(why))")
        case .timedOut:
            problem("hang", "the sound server did not finish a sound within \(Self.hangLimit / 1_000_000) s; it was stopped")
        case .failed(let why):
            problem("process", "the sound's process failed (\(why))")
        }
        onFinished?(job.name, outcome)
    }

    /// The sound's process has run too long (a server that hangs): killed; its exit arrives through the pidfd.
    private func hanging() {
        guard let job else { return }
        killed = true
        kill(job.pid, SIGKILL)
    }

    private func cancelSources() {
        wakeWatch?.cancel()
        hangTimer?.cancel()
        wakeWatch = nil
        hangTimer = nil
    }

    /// Logs a problem of this `kind` the first time only.
    private func problem(_ kind: String, _ sentence: String) {
        guard said.insert(kind).inserted else { return }
        log.warning("Sound: \(sentence); the schedule goes on without it (logged once).", fields: [("ICARE_SOUND_PROBLEM", kind)])
    }
}
