import Glibc
import DBusKit
import SystemdKit
import ReminderCore
import Localization
import FileKit
import ICareFiles
import DoNotDisturb
import Busy
import DesktopBreaks
import Presence
import StatusItem
import Sound
import Phones
import PhoneRemote
import DesktopReport

/// The composition of `icared`: one loop, one bus connection, the engine, the components that feed it
/// events and carry out its effects, what they last reported (`Facts`) and the one value announced on
/// the bus (`Announced`). All state lives here, on one thread; every change goes through `apply` (a
/// watcher's or the timer's event) or `call` (a client's), and then the one pass (Daemon+Followers).
public final class Daemon {
    /// The service's version, also the `Version` property.
    public static let version = ICareVersion.current

    let loop: EventLoop
    let log: Log
    let paths: XDGPaths
    let calendar: any LocalCalendar
    /// The engine; built again once the desktop is known, then changed only by `apply` and `call`, each followed by the pass.
    var engine: ReminderEngine
    var bus: Connection?
    var object: ExportedObject?
    /// The components, each made by its `start*` function (DaemonParts).
    var parts = Parts()
    /// What the watchers last reported.
    var facts = Facts()
    /// What the interface shows, as last announced: its properties read it (ReminderInterface+Properties).
    var announced: Announced
    /// The config file, the history, the saved schedule and what is kept about them (DaemonParts).
    var files: Files
    /// Whether the desktop is known yet, and whether a pass is under way (Daemon+Followers).
    var pass = Pass()
    var exitCode: Int32 = 0
    /// Runs once the name is owned (the Standby this icared took over from lets its connection go).
    public var onNameOwned: () -> Void = {}

    /// Builds the daemon from the files in `paths`; nothing on the bus yet.
    public init(loop: EventLoop, log: Log, paths: XDGPaths, calendar: any LocalCalendar = SystemCalendar(),
                timeScale: TimeScale = .real) {
        self.loop = loop
        self.log = log
        self.paths = paths
        self.calendar = calendar
        var files = Files(paths: paths, recordBudget: RecordBudget(now: Int64(Clock.monotonic.now()), factor: timeScale.factor))
        var facts = Facts()
        let now = Daemon.wallNow()
        let (settings, problems) = files.config.load(previous: nil)
        for p in problems { log.warning(p.description) }
        facts.configProblems = problems.map(\.description)
        (facts.desktop.sandbox, facts.desktop.login) = Daemon.howStarted(configHome: paths.configHome)
        let (today, todayProblems) = Daemon.todayRecords(history: files.history, calendar: calendar, now: now, log: log)
        var snapshot: EngineSnapshot? = nil
        do {
            if let text = try files.stateFile.read() {
                snapshot = EngineSnapshot(decoding: text)
                if snapshot == nil { log.warning("\(files.stateFile.path): unreadable saved state; starting a fresh interval.") }
                files.lastSavedSnapshot = text
            }
        } catch {
            log.warning("\(files.stateFile.path): \(error); starting a fresh interval.")
        }
        startup = Startup(settings: settings, today: today, snapshot: snapshot, timeScale: timeScale)
        let (engine, stored) = Daemon.makeEngine(startup, calendar: calendar, now: now, history: files.history,
                                                 doNotDisturb: false, locked: false)
        files.storedBeforeCrash = stored
        files.reportedHistoryProblems = Set(todayProblems)
        self.engine = engine
        self.files = files
        self.facts = facts
        announced = Announced(status: engine.status, settings: engine.settings, facts: facts)
    }

    /// What the files said at start-up; the engine is built from it again
    /// once the desktop's do-not-disturb and lock state are known.
    struct Startup {
        let settings: Settings
        let today: [BreakRecord]
        let snapshot: EngineSnapshot?
        let timeScale: TimeScale
    }
    let startup: Startup

    // MARK: running

    /// Connects, serves `org.icare.Reminder`, and runs until SIGTERM/SIGINT
    /// (status 0), a lost bus (status 1), or a failed start (status 1).
    public func run() -> Int32 {
        do {
            try loop.exitOnTerminationSignals()
            loop.enableWatchdog()
            let owed = welcomeOwed()
            try ensureDirectories()
            let bus = try Connection(bus: .session, loop: loop)
            self.bus = bus
            bus.onDisconnect = { [unowned self] in
                self.log.error("Lost the connection to the session bus; exiting.")
                self.exitCode = 1
                self.loop.exit(1)
            }
            let object = ExportedObject(path: ReminderInterface.path,
                                        interfaces: [ReminderInterface.describe(self, version: Daemon.version)])
            self.object = object
            bus.export(object)
            startNotifier(bus, welcomeOwed: owed)
            startStatusItem(bus)
            startDesktopWatchers(bus)
            startPhones(bus)
            startWithDesktopKnown()
            // From an icared that defers (Standby), which allows it; never from another keeper.
            switch try bus.requestName(ReminderInterface.busName, replaceExisting: true) {
            case .primaryOwner, .alreadyOwner:
                onNameOwned()
            case .exists, .inQueue:
                log.error("Another icared already owns org.icare.Reminder on this session bus; this one exits.")
                return 1
            }
            try startWatchers()
            // What ended while the service was down is recorded now, before its signal.
            perform(engine.startupEffects)
            startSounds()
            afterChange()
            if !engine.timeScale.isReal { log.notice(Texts.timeScaleInEffect(factor: engine.timeScale.factor)) }
            log.info("iCare \(Daemon.version) is running; \(statusLine(announced.status)).",
                     fields: [("ICARE_STATE", announced.status.state.rawValue)])
            SystemdNotify.ready(status: statusLine(announced.status))
        } catch {
            log.error("Could not start: \(error)")
            return 1
        }
        let code: Int32
        do {
            code = try loop.run()
        } catch {
            log.error("The event loop failed: \(error)")
            return 1
        }
        SystemdNotify.stopping()
        saveSnapshot()
        bus?.flush()
        log.info("Stopped.")
        return code != 0 ? code : exitCode
    }

    private func ensureDirectories() throws {
        try Directory.ensure(paths.configDirectory)
        try Directory.ensure(paths.stateDirectory)
    }

    private func startWatchers() throws {
        parts.deadline = try loop.addTimer(clock: .realtime, at: 0, accuracy: 1_000) { [unowned self] in
            self.deliver(.timer)
            // On a wake-up the schedule needs anyway (never at start-up):
            // the first one of each local day, and so also for a person who
            // logs out every evening and never runs across midnight.
            self.trimHistoryOnNewDay()
        }
        parts.deadline?.setEnabled(.off)
        parts.sources.append(try loop.addTimeChange { [unowned self] in
            SystemCalendar.reloadTimeZone()
            self.log.info("The wall clock changed; re-evaluating the schedule.")
            self.deliver(.clockChanged)
        })
        do {
            parts.sources.append(try loop.addInotify(path: paths.configDirectory,
                                               mask: UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)) {
                [unowned self] _, name in
                if name == "config" { self.reloadConfig() }
            })
        } catch {
            // The service runs on; only hand edits wait for the next start.
            log.warning("Cannot watch \(paths.configDirectory) for edits of the config file (\(error)); they take effect at the next start.")
        }
    }

    // MARK: events

    /// Feeds an event from a watcher or timer (nil: only the facts changed); an engine refusal is logged.
    func deliver(_ event: ReminderEvent?, at moment: Timestamp? = nil) {
        do {
            try apply(event, at: moment)
        } catch {
            log.debug("Ignored \(event.map { "\($0)" } ?? "a change"): \(error)")
        }
    }

    /// Runs one change through the engine (`event`, and what holds reminders back when that changed:
    /// `engineEvents`), carries out its effects in order, and then runs the one pass, which announces
    /// every property that changed (Daemon+Followers). `moment` is when the event happened, when it is
    /// not now (idle began earlier). A refusal changes nothing.
    func apply(_ event: ReminderEvent?, at moment: Timestamp? = nil) throws(ReminderError) {
        let now = moment ?? Daemon.wallNow()
        var next = engine
        var effects: [ReminderEffect] = []
        for e in engineEvents(event) { effects += try next.handle(e, at: now) }
        engine = next
        perform(effects)
        afterChange()
    }

    /// The events one change brings the engine: the watcher's, the timer's or the client's `event`,
    /// then the busy state when what of it holds reminders back changed (a call began or ended, or
    /// `FullScreenReminders` under a full screen). That is decided here, from the facts and the
    /// settings the change leaves, before the engine runs: never from inside the pass.
    func engineEvents(_ event: ReminderEvent?) -> [ReminderEvent] {
        var settings = engine.settings
        if case .settingsChanged(let new)? = event { settings = new }
        let held = Announced.held(facts.busy, settings)
        var events = event.map { [$0] } ?? []
        // A full screen left offers a held reminder at once; a call ended, after the grace.
        if held.active != engine.busyObserved { events.append(.busy(held.active, grace: announced.busy.source != BusyState.fullScreen)) }
        return events
    }

    /// Carries out `effects` in order; `recordsStored` when their records
    /// are in the history already (a client's call stores them first).
    func perform(_ effects: [ReminderEffect], recordsStored: Bool = false) {
        // A report while they are carried out waits for the pass that follows them, like one from inside it.
        let running = pass.running
        pass.running = true
        defer { pass.running = running }
        for effect in effects {
            switch effect {
            case .record(let r):
                guard !recordsStored else { break }
                do {
                    try store(r)
                } catch {
                    log.error("Could not save a break record: \(error)")
                }
            case .breakDue(let at): emit("BreakDue", .uint64(UInt64(max(0, at))))
            case .breakStarted(let ends): emit("BreakStarted", .uint64(UInt64(max(0, ends))))
            case .breakCompleted(let at): emit("BreakCompleted", .uint64(UInt64(max(0, at))))
            case .breakSkipped(let at): emit("BreakSkipped", .uint64(UInt64(max(0, at))))
            case .breakMissed(let at): emit("BreakMissed", .uint64(UInt64(max(0, at))))
            case .breakSnoozed(let until): emit("BreakSnoozed", .uint64(UInt64(max(0, until))))
            }
            followEffect(effect)
        }
    }

    private func emit(_ signal: String, _ arg: DBusValue) {
        object?.emit(ReminderInterface.name, signal, [arg])
    }

    /// One human line for `systemctl status` and the log.
    func statusLine(_ s: ReminderStatus) -> String {
        switch s.state {
        case .waiting, .snoozed: return "next break at \(clockTime(s.nextBreak))"
        case .due: return "a break is due"
        case .break: return "break until \(clockTime(s.breakEnds))"
        case .paused:
            let why = s.pauseReason == .user ? "paused" : "paused (\(s.pauseReason.rawValue))"
            return s.pausedUntil > 0 ? "\(why) until \(clockTime(s.pausedUntil))" : why
        case .inactive: return s.nextBreak > 0 ? "outside active hours; next break at \(clockTime(s.nextBreak))" : "outside active hours"
        }
    }

    func clockTime(_ t: Timestamp) -> String {
        let l = calendar.local(t)
        return LocaleTime.clock(hour: l.hour, minute: l.minute)
    }
}
