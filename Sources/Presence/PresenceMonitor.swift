import Glibc
import DBusKit
import SystemdKit
import WaylandIdle
import DesktopWatch

/// Tells whether the person is at the screen: locked, idle, asleep. Every
/// answer arrives by signal (no polling, no periodic timer); each source that
/// is missing is logged once and the others keep working.
///
/// Sources (shapes in `docs/desktop-facts.md`, "Presence"):
/// - logind on the system bus: the own session's `LockedHint`, `Active`,
///   `IdleHint`/`IdleSinceHint`, and the manager's `PrepareForSleep`;
/// - `org.gnome.ScreenSaver` and `org.freedesktop.ScreenSaver` on the session
///   bus: `ActiveChanged`;
/// - `org.gnome.Mutter.IdleMonitor` on the session bus: idle and user-active watches;
/// - the Wayland compositor's `ext-idle-notify-v1` or `org_kde_kwin_idle`
///   where Mutter's monitor is absent (`WaylandIdleSource`, docs/wayland-idle.md).
///
/// Decisions:
/// - **Locked** is logind `LockedHint` OR logind `Active == false` OR any
///   screensaver active. `Active == false` means another session has the
///   seat (user switch, VT switch): the person cannot see this screen, which
///   for the eyes is the same as a lock. A source that vanishes stops
///   counting (it cannot hold the schedule paused).
/// - **Idle** is Mutter's idle watch for the threshold OR the Wayland
///   compositor's idle notification for it OR logind `IdleHint`
///   held for the threshold since `IdleSinceHint` (one one-shot timer to
///   that moment, not a poll).
/// - **Media playback.** A player holding an idle inhibitor stops GNOME
///   from going idle: Mutter freezes its idle watches while gnome-session
///   reports the idle inhibitor (and restarts the idle count when it ends),
///   logind's `IdleHint` stays false, the screensaver stays off. So during a
///   video iCare sees the person as present — right for the eyes, since
///   watching is screen time and reminders should keep coming. It must not
///   last forever, though (a person who left a video playing is away): when a
///   reminder comes due the daemon calls `checkAwayDespiteInhibitor()`, which
///   asks Mutter once for the real time since the last input (`GetIdletime`
///   counts straight through inhibitors); at `inhibitedPresenceLimit` or more
///   the person is reported idle, and the next input reports them back. No
///   timer is added for this: it rides on the reminder the daemon has anyway.
/// - **Sleep** time is measured on CLOCK_BOOTTIME, which runs through suspend.
///
/// All of it lives on the loop's thread; callbacks run there, only on real changes.
public final class PresenceMonitor {
    /// The screen is locked (true) or unlocked (false).
    public var onLocked: ((Bool) -> Void)?
    /// The person has been idle for the threshold (true), or is back (false).
    public var onIdle: ((Bool) -> Void)?
    /// The machine is about to suspend (true) or has resumed (false).
    public var onSleep: ((Bool) -> Void)?

    /// Whether the screen counts as locked now.
    public private(set) var isLocked = false
    /// Whether the person counts as idle now.
    public private(set) var isIdle = false
    /// Whether the machine is between `PrepareForSleep(true)` and `(false)`.
    public internal(set) var isAsleep = false
    /// How long the last suspend lasted, µs of CLOCK_BOOTTIME from
    /// `PrepareForSleep(true)` to `(false)`; nil before the first resume.
    public internal(set) var lastSleepDuration: UInt64?
    /// No input for this long (seconds) counts as away even while an idle
    /// inhibitor keeps GNOME from saying so; see `checkAwayDespiteInhibitor()`.
    public var inhibitedPresenceLimit: UInt32 = 3600
    /// The idle threshold in seconds (the break duration).
    public private(set) var idleThreshold: UInt32 = 20

    /// The sources being watched right now, for the log.
    /// Runs when a source (logind, a screensaver, Mutter's idle monitor, the Wayland compositor's idle
    /// notifications) came or went.
    public var onSourcesChange: (() -> Void)?

    public var sourcesFound: [String] {
        var found: [String] = []
        if let logind, logind.present {
            found.append("logind")
            if let path = logind.sessionPath { found.append("logind session \(path)") }
        }
        for s in screensavers where s.present { found.append(s.name) }
        if mutter.present { found.append(MutterIdleWatcher.busName) }
        if let proto = wayland.watching { found.append("wayland \(proto.globalName)") }
        return found
    }

    let loop: EventLoop
    private let log: Log
    /// Why there is no system bus, for the one line that says so.
    private let systemBusProblem: String?
    /// logind's watcher on the system bus connection of the moment (nil: none).
    var logind: LogindWatcher?
    let screensavers: [ScreenSaverWatcher]
    /// The Inhibit portal's monitor, only in the Flatpak sandbox (no logind there).
    let portal: PortalSessionWatcher?
    /// In the Flatpak sandbox: runs with whether a locked screen can be seen (PresenceMonitor+Sandbox).
    public var onLockSeen: ((Bool) -> Void)?
    var lockSeen: Bool?
    private let mutter: MutterIdleWatcher
    private let wayland: WaylandIdleSource
    var started = false
    var sleepStartedAt: UInt64 = 0
    var idleHintReached = false
    var idleHintTimer: EventSource?
    /// Sources already logged as missing (each is logged once).
    var missingLogged: Set<String> = []
    /// What this monitor logged at info or above, newest last (kept short; for tests).
    private(set) var logged: [String] = []

    /// Watches the session bus, and the system bus when there is one (nil: lock
    /// hints and sleep from logind are simply not watched; `systemBusProblem`
    /// says why in the one line logged about it). `waylandDisplay` is
    /// `WAYLAND_DISPLAY` (nil or empty: not a Wayland session).
    public init(session: Connection, system: Connection?, loop: EventLoop, log: Log, systemBusProblem: String? = nil,
                waylandDisplay: String? = nil) {
        self.loop = loop
        self.log = log
        self.systemBusProblem = systemBusProblem
        logind = system.map { LogindWatcher(bus: $0) }
        screensavers = [ScreenSaverWatcher.gnome, ScreenSaverWatcher.freedesktop].map {
            ScreenSaverWatcher(bus: session, name: $0.name, interface: $0.interface, paths: $0.paths)
        }
        mutter = MutterIdleWatcher(bus: session, thresholdMs: 20_000)
        portal = Sandbox.isFlatpak ? PortalSessionWatcher(bus: session) : nil
        wayland = WaylandIdleSource(display: waylandDisplay, loop: loop, thresholdMs: 20_000)
    }

    deinit { idleHintTimer?.cancel() }

    /// Subscribes to every source and reads their current state. Idempotent.
    public func start() {
        guard !started else { return }
        started = true
        if let logind {
            startLogind(logind)
        } else {
            let why = systemBusProblem.map { " (\($0))" } ?? ""
            reportMissing("system bus", "no system bus\(why): no lock hints or sleep from logind")
        }
        if let portal {
            portal.onActive = { [weak self] in self?.updateLocked() }
            portal.onAnswer = { [weak self] found, why in
                if !found { self?.note(.info, "the Inhibit portal's monitor is missing (\(why)): a lock is seen only through a screen saver") }
                self?.updateLockSeen()
            }
            portal.start()
        }
        for s in screensavers {
            let name = s.name
            s.onPresence = { [weak self] present in
                self?.sourceChanged(name, present, missing: "\(name) is not on the session bus: its lock screen is not watched")
                self?.updateLockSeen()
            }
            s.onActive = { [weak self] in self?.updateLocked() }
            s.start()
        }
        mutter.onPresence = { [weak self] present in
            self?.sourceChanged(MutterIdleWatcher.busName, present,
                               missing: "\(MutterIdleWatcher.busName) is not on the session bus: no idle watch from it")
            self?.wayland.mutterPresent(present)
        }
        wayland.note = { [weak self] level, message in self?.note(level, message) }
        wayland.onIdle = { [weak self] in self?.updateIdle() }
        // The compositor answers after start-up: the list of sources changes then, not at the next bus change.
        wayland.onWatchingChange = { [weak self] in self?.onSourcesChange?() }
        mutter.onIdle = { [weak self] in self?.updateIdle() }
        mutter.start()
    }

    /// Sets the idle threshold (the break duration, at least 1 s) and re-arms
    /// the idle watches for it.
    public func setIdleThreshold(seconds: UInt32) {
        let value = max(seconds, 1)
        guard value != idleThreshold else { return }
        idleThreshold = value
        mutter.setThreshold(ms: UInt64(value) * 1000)
        wayland.setThreshold(ms: value > UInt32.max / 1000 ? UInt32.max : value * 1000)
        logindHintsChanged()
    }

    /// Call when a reminder comes due. Asks Mutter once for the time since
    /// the last input; if it is at least `inhibitedPresenceLimit`, the person
    /// is reported idle although an idle inhibitor (media playback) kept
    /// GNOME from saying so, and the next input reports them back.
    public func checkAwayDespiteInhibitor() {
        guard !isIdle else { return }
        let limitMs = UInt64(inhibitedPresenceLimit) * 1000
        mutter.readIdleTime { [weak self] ms in
            guard let self, let ms, ms >= limitMs else { return }
            self.note(.info, "no input for \(ms / 1000) s although nothing went idle (an idle inhibitor?): counting the person as away")
            self.mutter.markAway()
        }
    }

    // MARK: combining

    func updateLocked() {
        var locked = screensavers.contains { $0.active } || portal?.active == true
        if let logind, logind.sessionPath != nil {
            locked = locked || logind.hints.locked || !logind.hints.active
        }
        guard locked != isLocked else { return }
        isLocked = locked
        note(.debug, locked ? "screen locked" : "screen unlocked")
        onLocked?(locked)
    }

    func updateIdle() {
        let idle = mutter.idle || wayland.idle || idleHintReached
        guard idle != isIdle else { return }
        isIdle = idle
        note(.debug, idle ? "idle for \(idleThreshold) s" : "back from idle")
        onIdle?(idle)
    }

    // MARK: sources and the log

    func sourceChanged(_ name: String, _ present: Bool, missing: String) {
        if present {
            note(.info, "watching \(name)")
        } else if !reportMissing(name, missing) {
            note(.debug, "\(name) went away")
        }
        updateLocked()
        onSourcesChange?()
    }

    /// Logs `message` the first time `source` is missing; returns whether it did.
    @discardableResult
    func reportMissing(_ source: String, _ message: String) -> Bool {
        guard missingLogged.insert(source).inserted else { return false }
        note(.info, message)
        return true
    }

    func note(_ level: LogLevel, _ message: String) {
        log.log(level, "presence: \(message)")
        guard level <= .info else { return }
        logged.append(message)
        if logged.count > 100 { logged.removeFirst(logged.count - 100) }
    }
}
