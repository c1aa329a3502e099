import Glibc
import DBusKit
import SystemdKit
import ReminderCore
import DoNotDisturb
import DesktopWatch
import Presence

/// The daemon's adapters to the desktop: the notifier, do-not-disturb,
/// presence and the system bus, wired to the engine; and the start-up step
/// that reads the desktop before the engine is built.
extension Daemon {
    func startNotifier(_ bus: Connection, welcomeOwed: Bool) {
        let notifier = Notifier(bus: bus, loop: loop, log: log, runtimeDirectory: paths.runtimeDirectory)
        parts.notifier = notifier
        startWelcome(notifier, owed: welcomeOwed)
        notifier.onAction = { [unowned self] action in
            switch action {
            case .start: self.deliver(.startBreak)
            case .snooze: self.deliver(.snooze(seconds: 0))
            case .skip, .endBreak: self.deliver(.skip)
            case .openApp(let token): self.openApp(activationToken: token)
            }
        }
        // The server found or gone: what `Capabilities` says of it, and who plays the sounds.
        notifier.onProfileChange = { [unowned self, unowned notifier] in
            self.facts.desktop.server = notifier.serverFact
            self.facts.serverPlaysSound = notifier.profile?.sound ?? false
            self.report()
        }
        // It follows the status and the effects from Daemon+Followers.
        notifier.start()
    }

    /// Do-not-disturb on every desktop, and presence (lock, idle, sleep).
    /// Each missing piece is logged once by its watcher; none is required.
    /// Each desktop's own keys act only on that desktop (`SessionDesktops`:
    /// the session's `XDG_CURRENT_DESKTOP` and its shell on the bus).
    func startDesktopWatchers(_ bus: Connection) {
        let desktops = SessionDesktops(connection: bus, log: log, currentDesktop: getenv("XDG_CURRENT_DESKTOP").map { String(cString: $0) })
        let dnd = DndMonitor(session: bus, loop: loop, log: log, dconfDatabasePath: paths.dconfDatabase, desktops: desktops)
        parts.dnd = dnd
        dnd.onChange = { [unowned self] active, source in
            // The monitor has logged the change (with its journal fields).
            self.facts.doNotDisturbSource = active ? source : ""
            self.report(.doNotDisturb(active))
        }
        // A provider that comes or goes without changing the switch still changes what `Capabilities` says.
        dnd.onProvidersChange = { [unowned self, unowned dnd] in
            self.facts.desktop.doNotDisturb = dnd.providersFound
            self.report()
        }
        followDesktopEyeBreaks(dnd.dconf, bus)
        startSandboxLimits(bus, dnd, desktops)
        dnd.start()
        startBusyMonitor(bus)
        followScreenTime(bus, desktops)
        startPresence(bus)
    }

    /// Presence: the screen lock, idle time and sleep. No system bus is logged once, by the monitor.
    private func startPresence(_ bus: Connection) {
        let systemBus = SystemBusLink(loop: loop, log: log)
        parts.systemBus = systemBus
        let systemBusProblem = systemBus.start()
        systemBus.onLost = { [unowned self] in self.parts.presence?.systemBusLost() }
        systemBus.onConnected = { [unowned self] connection in self.parts.presence?.systemBusConnected(connection) }
        let presence = PresenceMonitor(session: bus, system: systemBus.connection, loop: loop, log: log, systemBusProblem: systemBusProblem,
                                       waylandDisplay: getenv("WAYLAND_DISPLAY").map { String(cString: $0) })
        parts.presence = presence
        followLockInSandbox(presence)
        presence.onLocked = { [unowned self] locked in self.report(.locked(locked)) }
        presence.onSleep = { [unowned self] asleep in self.report(.sleep(asleep)) }
        presence.onIdle = { [unowned self, unowned presence] idle in
            guard idle else { return self.report(.idle(false)) }
            // The watch fires once the person has been idle for the threshold: idleness began that long ago.
            self.report(.idle(true), at: Daemon.wallNow() - Micro.seconds(presence.idleThreshold))
        }
        presence.onSourcesChange = { [unowned self, unowned presence] in
            self.facts.desktop.timeAway = presence.sourcesFound.filter { !$0.hasPrefix("logind session ") }
            self.report()
        }
        presence.setIdleThreshold(seconds: engine.settings.breakDuration)
        presence.start()
    }

    /// A desktop already in do-not-disturb or locked must be known before
    /// the first state is shown or announced, and before a reminder missed
    /// while the service was down can go out. Runs the loop until every DND
    /// watcher has had its first look (a few bus round trips, at most
    /// `DndMonitor.firstLookLimit`) — before the name is requested, so no
    /// client call can come in between — then builds the engine from the
    /// start-up files with what was seen. Watchers' reports before this point
    /// are facts, not events: the engine starts from them.
    func startWithDesktopKnown() {
        guard let dnd = parts.dnd else { return }
        while !dnd.settled {
            do { try loop.runOnce(timeout: DndMonitor.firstLookLimit) } catch { break }
        }
        let locked = parts.presence?.isLocked ?? false
        let (engine, stored) = Daemon.makeEngine(startup, calendar: calendar, now: Daemon.wallNow(), history: files.history,
                                                 doNotDisturb: dnd.active, locked: locked)
        self.engine = engine
        files.storedBeforeCrash = stored
        facts.desktop.doNotDisturbSettled = true
        pass.desktopKnown = true
        // Nothing was announced before the name is owned: this is the value the first change is compared with.
        announced = Announced(status: engine.status, settings: engine.settings, facts: facts)
        // A call already going on holds reminders back from the start (`engineEvents`).
        if Announced.held(facts.busy, engine.settings).active { deliver(nil) }
    }
}
