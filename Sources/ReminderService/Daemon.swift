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

/// The composition of `icared`: one loop, one bus connection, the engine,
/// and the adapters that feed it events and carry out its effects.
/// All state lives here, on one thread.
public final class Daemon {
    /// The service's version, also the `Version` property.
    public static let version = ICareVersion.current

    let loop: EventLoop
    let log: Log
    let paths: XDGPaths
    let calendar: any LocalCalendar
    /// The engine; every change goes through `apply`, which refreshes `status`.
    var engine: ReminderEngine {
        didSet { status = engine.status }
    }
    /// The engine's status, kept current: property reads (GetAll reads nine
    /// of them) must not recompute the schedule each time.
    private(set) var status: ReminderStatus
    var bus: Connection?
    var object: ExportedObject?
    var deadline: EventSource?
    var sources: [EventSource] = []
    var lastSavedSnapshot = ""
    var dndSource = ""
    /// The busy state as last reported (`Busy`, `BusySource`, `BusyReason`).
    var busyState = BusyState.free
    /// The config file's lines that could not be used, as the log words them (`ConfigProblems`).
    var configProblems: [String] = []
    /// In the Flatpak sandbox, what cannot work there now (`SandboxLimits`, Daemon+Sandbox).
    var sandboxLimits: [String] = []
    /// What icared can see on this desktop, as last announced (`Capabilities`, Daemon+Capabilities).
    var capabilities: [Capability] = []
    var saidSandboxLimits: Set<String> = []
    /// In the Flatpak, whether the desktop starts icared at login, as the app's welcome was told (nil: not asked; Daemon+Sandbox).
    var startsAtLogin: Bool?
    var exitCode: Int32 = 0
    /// Runs once the name is owned (the Standby this icared took over from lets its connection go).
    public var onNameOwned: () -> Void = {}
    var notifier: Notifier?
    var statusItem: StatusItem?
    var dnd: DndMonitor?
    var presence: PresenceMonitor?
    var busyMonitor: BusyMonitor?
    var eyeBreaks: DesktopEyeBreaks?
    var screenTime: ScreenTimeWatch?
    var eventSounds: EventSounds?
    var phones: PhoneReminders?
    var phoneRemote: PhoneRemote?
    /// The phones as `Phones` lists them, as last announced.
    var phoneLabels: [String] = []
    /// Who plays the sounds, as last announced (`SoundPlayedBy`; see Daemon+Sound).
    var soundPlayedBy = SoundWay.icared.rawValue
    /// GNOME's own eyesight breaks are on (`DesktopEyeBreaks`).
    var desktopEyeBreaks = false
    var systemBus: SystemBusLink?
    /// False until `startWithDesktopKnown`: watcher reports before it are folded into the engine's start.
    var desktopKnown = false

    let config: ConfigFile
    let history: HistoryStore
    let stateFile: StateFile
    /// Records the engine recreates at start-up that are already in the
    /// history (a crash fell between their append and the state file's
    /// update): their signals go out again, they are not stored twice.
    var storedBeforeCrash: [BreakRecord] = []
    /// The local day (`yyyymmdd`) of the last history trim in this run (0:
    /// none yet): the trim runs on the first timer wake-up of each day.
    var historyTrimDay = 0
    /// A config file that vanished is read again after a grace period (an
    /// editor may be between moving the old file away and writing the new one).
    var configGrace: EventSource?
    var configGraceArmed = false
    /// History problems already logged, so a client polling GetHistory does not flood the log.
    var reportedHistoryProblems: Set<String> = []
    /// How many break records clients may still cause (see `RecordBudget`).
    var recordBudget: RecordBudget
    /// Whether the refusal of a call over the record budget has been logged
    /// since the budget last had room.
    var recordBudgetLogged = false

    /// Builds the daemon from the files in `paths`; nothing on the bus yet.
    public init(loop: EventLoop, log: Log, paths: XDGPaths, calendar: any LocalCalendar = SystemCalendar(),
                timeScale: TimeScale = .real) {
        self.loop = loop
        self.log = log
        self.paths = paths
        self.calendar = calendar
        config = ConfigFile(paths: paths)
        history = HistoryStore(paths: paths)
        stateFile = StateFile(paths: paths)
        let now = Daemon.wallNow()
        let (settings, problems) = config.load(previous: nil)
        for p in problems { log.warning(p.description) }
        configProblems = problems.map(\.description)
        recordBudget = RecordBudget(now: Int64(Clock.monotonic.now()), factor: timeScale.factor)
        let (today, todayProblems) = Daemon.todayRecords(history: history, calendar: calendar, now: now, log: log)
        var snapshot: EngineSnapshot? = nil
        do {
            if let text = try stateFile.read() {
                snapshot = EngineSnapshot(decoding: text)
                if snapshot == nil { log.warning("\(stateFile.path): unreadable saved state; starting a fresh interval.") }
                lastSavedSnapshot = text
            }
        } catch {
            log.warning("\(stateFile.path): \(error); starting a fresh interval.")
        }
        startup = Startup(settings: settings, today: today, snapshot: snapshot, timeScale: timeScale)
        let (engine, stored) = Daemon.makeEngine(startup, calendar: calendar, now: now, history: history,
                                                 doNotDisturb: false, locked: false)
        self.engine = engine
        status = engine.status
        storedBeforeCrash = stored
        reportedHistoryProblems = Set(todayProblems)
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
            object.trackingChanges { perform(engine.startupEffects) }
            startSounds()
            afterChange()
            if !engine.timeScale.isReal { log.notice(Texts.timeScaleInEffect(factor: engine.timeScale.factor)) }
            log.info("iCare \(Daemon.version) is running; \(statusLine()).",
                     fields: [("ICARE_STATE", status.state.rawValue)])
            SystemdNotify.ready(status: statusLine())
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
        deadline = try loop.addTimer(clock: .realtime, at: 0, accuracy: 1_000) { [unowned self] in
            self.deliver(.timer)
            // On a wake-up the schedule needs anyway (never at start-up):
            // the first one of each local day, and so also for a person who
            // logs out every evening and never runs across midnight.
            self.trimHistoryOnNewDay()
        }
        deadline?.setEnabled(.off)
        sources.append(try loop.addTimeChange { [unowned self] in
            SystemCalendar.reloadTimeZone()
            self.log.info("The wall clock changed; re-evaluating the schedule.")
            self.deliver(.clockChanged)
        })
        do {
            sources.append(try loop.addInotify(path: paths.configDirectory,
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

    /// Feeds an event from a watcher or timer; an engine refusal is logged.
    func deliver(_ event: ReminderEvent, at moment: Timestamp? = nil, thenFollow: Bool = true) {
        do {
            try apply(event, at: moment, thenFollow: thenFollow)
        } catch {
            log.debug("Ignored \(event): \(error)")
        }
    }

    /// Runs one event through the engine, carries out its effects in order,
    /// announces every property that changed, and then (`thenFollow`) runs
    /// `afterChange`: the one timer and the followers (Daemon+Followers).
    /// `moment` is when the event happened, when it is not now (idle began earlier).
    func apply(_ event: ReminderEvent, at moment: Timestamp? = nil, thenFollow: Bool = true) throws(ReminderError) {
        let now = moment ?? Daemon.wallNow()
        try announcingChanges { () throws(ReminderError) in perform(try engine.handle(event, at: now)) }
        if thenFollow { afterChange() }
    }

    /// Runs `body` and then sends one `PropertiesChanged` for every property
    /// it changed (once the object is on the bus; before that, just runs it).
    func announcingChanges<E: Error>(_ body: () throws(E) -> Void) throws(E) {
        if let object { try object.trackingChanges(body) } else { try body() }
    }

    /// Carries out `effects` in order; `recordsStored` when their records
    /// are in the history already (a client's call stores them first).
    func perform(_ effects: [ReminderEffect], recordsStored: Bool = false) {
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
    func statusLine() -> String {
        let s = status
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
