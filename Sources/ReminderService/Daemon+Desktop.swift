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
        self.notifier = notifier
        startWelcome(notifier, owed: welcomeOwed)
        notifier.onAction = { [unowned self] action in
            switch action {
            case .start: self.deliver(.startBreak)
            case .snooze: self.deliver(.snooze(seconds: 0))
            case .skip, .endBreak: self.deliver(.skip)
            case .openApp(let token): self.openApp(activationToken: token)
            }
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
        self.dnd = dnd
        dnd.onChange = { [unowned self] active, source in
            guard self.desktopKnown else { return }
            // The monitor has logged the change (with its journal fields); only announce it here.
            self.announcingChanges {
                self.dndSource = active ? source : ""
                self.deliver(.doNotDisturb(active))
            }
        }
        // A provider that comes or goes without changing the switch still changes what `Capabilities` says.
        dnd.onProvidersChange = { [unowned self] in if self.desktopKnown { self.refreshCapabilities() } }
        followDesktopEyeBreaks(dnd.dconf, bus)
        startSandboxLimits(bus, dnd, desktops)
        dnd.start()
        startBusyMonitor(bus)
        followScreenTime(bus, desktops)

        // No system bus is logged once, by the presence monitor.
        let systemBus = SystemBusLink(loop: loop, log: log)
        self.systemBus = systemBus
        let systemBusProblem = systemBus.start()
        systemBus.onLost = { [unowned self] in self.presence?.systemBusLost() }
        systemBus.onConnected = { [unowned self] connection in self.presence?.systemBusConnected(connection) }
        let presence = PresenceMonitor(session: bus, system: systemBus.connection, loop: loop, log: log, systemBusProblem: systemBusProblem,
                                       waylandDisplay: getenv("WAYLAND_DISPLAY").map { String(cString: $0) })
        self.presence = presence
        followLockInSandbox(presence)
        presence.onLocked = { [unowned self] locked in
            if self.desktopKnown { self.deliver(.locked(locked)) }
        }
        presence.onSleep = { [unowned self] asleep in
            if self.desktopKnown { self.deliver(.sleep(asleep)) }
        }
        presence.onIdle = { [unowned self] idle in
            guard self.desktopKnown else { return }
            guard idle else { return self.deliver(.idle(false)) }
            // The watch fires once the person has been idle for the threshold: idleness began that long ago.
            let threshold = Micro.seconds(presence.idleThreshold)
            self.deliver(.idle(true), at: Daemon.wallNow() - threshold)
        }
        presence.onSourcesChange = { [unowned self] in self.refreshCapabilities() }
        presence.setIdleThreshold(seconds: engine.settings.breakDuration)
        presence.start()
    }

    /// A desktop already in do-not-disturb or locked must be known before
    /// the first state is shown or announced, and before a reminder missed
    /// while the service was down can go out. Runs the loop until every DND
    /// watcher has had its first look (a few bus round trips, at most
    /// `DndMonitor.firstLookLimit`) — before the name is requested, so no
    /// client call can come in between — then builds the engine from the
    /// start-up files with what was seen. Watcher changes before this point
    /// are not events: the engine starts from their state.
    func startWithDesktopKnown() {
        guard let dnd else { return }
        while !dnd.settled {
            do { try loop.runOnce(timeout: DndMonitor.firstLookLimit) } catch { break }
        }
        let locked = presence?.isLocked ?? false
        let (engine, stored) = Daemon.makeEngine(startup, calendar: calendar, now: Daemon.wallNow(), history: history,
                                                 doNotDisturb: dnd.active, locked: locked)
        self.engine = engine
        storedBeforeCrash = stored
        dndSource = dnd.active ? dnd.source : ""
        desktopKnown = true
        if let busy = busyMonitor?.state, busy.active { busyChanged(busy) }
    }
}
