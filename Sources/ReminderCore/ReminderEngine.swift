import Localization
/// The reminder schedule and state machine of `org.icare.Reminder`, pure:
/// events in (`handle(_:at:)`), effects out; the clock and the local
/// calendar are injected. The service delivers `.timer` at `nextDeadline`
/// and nothing else is periodic.
///
/// Decisions where `docs/interface.md` is silent:
/// - State precedence: `break` over `paused` over `inactive` over the cycle
///   (waiting, due, snoozed). A break runs even while paused or inactive.
/// - The first reminder of an active period is one `Interval` after it starts.
/// - Leaving the active hours (or a pause beginning) while `due` or
///   `snoozed` closes the reminder without a record; a running break goes on.
/// - A reminder that should have gone out while the engine was not told
///   (a gap, a clock jump) goes out at the moment it learns, never in the
///   past; a reminder already out becomes at most one `missed` record.
/// - Time away (lock, sleep, idle) counts only inside the current active
///   stretch; a natural record is written only if the person returns inside
///   active hours, for at most `naturalRestCap` seconds.
/// - A `now` earlier than the last one means the clock went back: every
///   pending instant moves back by the same amount, so each countdown keeps
///   what it had left.
public struct ReminderEngine: Sendable {
    /// The most seconds a natural record claims: one long absence is one
    /// break, and a day's rest total stays meaningful.
    public static let naturalRestCap: UInt32 = 3600
    /// Snooze accepts 60–3600 seconds (0 = the configured `SnoozeDuration`).
    public static let snoozeRange: ClosedRange<UInt32> = 60...3600
    /// Pause accepts at most a day (0 = until `Resume`).
    public static let maxPause: UInt32 = 86_400

    /// The settings in force.
    public internal(set) var settings: Settings
    /// How fast the schedule runs (`TimeScale` says what it scales).
    public let timeScale: TimeScale
    /// The effects of catching up from a restored snapshot to `now` in
    /// `init` (records of what ended while the service was down, a released
    /// reminder); apply them like those of `handle`. Empty without a snapshot.
    public private(set) var startupEffects: [ReminderEffect] = []

    let calendar: any LocalCalendar
    /// The last instant the engine has been told about.
    var clock: Timestamp
    var phase: EnginePhase = .off
    /// Whether `clock` was inside the active hours at the last look.
    var active: Bool
    var userPause: UserPause?
    /// The pause causes that hold, oldest first: the last one is `PauseReason`.
    var causes: [PauseReason] = []
    var doNotDisturb = false
    var locked = false
    var asleep = false
    /// When a counted idle span began (nil: present, or idle not counted).
    var idleSince: Timestamp?
    /// When the current absence (lock, sleep, counted idle) began.
    var awaySince: Timestamp?
    /// Whether the idle watch says the person is idle (counted or not).
    var idleObserved = false
    /// In a call, sharing the screen or watching a video.
    var busy = false
    /// When the last busy span ended (rest is never counted before it).
    var busyEnded: Timestamp?
    /// The end of the grace period after a call (policy `defer`).
    var graceUntil: Timestamp?
    /// When the last `natural` record was made (not kept across restarts).
    var lastNatural: Timestamp?
    var tally: DayTally

    /// An engine at `now`. `today` are the history's records (those of the
    /// local day of `now` are counted). With `restoring`, the schedule goes
    /// on from the snapshot — the countdown is not reset, a timed pause keeps
    /// its end, a break resumes or, if it ended while the service was down,
    /// is recorded `completed` at its `BreakEnds` (see `startupEffects`).
    /// Do-not-disturb, lock, sleep and idle are not restored: the service
    /// reports them afresh. A reminder that was out stays `due` with no new
    /// `breakDue` (show it again from `status`); one held by DND goes out.
    ///
    /// `doNotDisturb`, `locked` and `busy` are the desktop as observed at start-up:
    /// they hold from the saved moment on, so a reminder missed while the
    /// service was down is held or paused, never let out into a desktop
    /// that is in do-not-disturb or locked.
    ///
    /// `timeScale` makes the waits between breaks pass faster (a demo and
    /// test aid); a restored countdown keeps its instant.
    public init(settings: Settings, calendar: any LocalCalendar, now: Timestamp,
                today: [BreakRecord] = [], restoring: EngineSnapshot? = nil,
                doNotDisturb: Bool = false, locked: Bool = false, timeScale: TimeScale = .real,
                busy: Bool = false) {
        self.settings = settings
        self.timeScale = timeScale
        self.calendar = calendar
        clock = now
        active = ActiveSchedule(settings: settings, calendar: calendar).isActive(now)
        tally = DayTally(containing: now, calendar: calendar)
        for record in today where record.at >= tally.start && record.at < tally.end {
            tally.count(record, calendar: calendar)
        }
        var out = Outbox()
        if let snapshot = restoring {
            clock = snapshot.clock
            phase = snapshot.phase
            userPause = snapshot.userPause
            if userPause != nil { causes = [.user] }
            active = schedule.isActive(clock)
        }
        observeAtStart(doNotDisturb: doNotDisturb, locked: locked, at: now)
        if busy { setBusy(true, at: now) }
        if restoring != nil {
            advance(to: now, &out)
        }
        settle(at: now, &out)
        advance(to: now, &out)
        finish(&out)
        startupEffects = out.effects
    }

    /// Handles one event that happened at `now` and returns what to do, in
    /// order. On error nothing changes. Time-driven changes up to `now`
    /// (a break ending, a reminder due, a pause over) are applied first.
    public mutating func handle(_ event: ReminderEvent, at now: Timestamp) throws(ReminderError) -> [ReminderEffect] {
        try Self.validate(event)
        var next = self
        var out = Outbox()
        // idle(true) carries when idleness began, usually before the last event: not a clock going back.
        let moment: Timestamp
        if case .idle(true) = event { moment = max(now, clock) } else { moment = now }
        next.advance(to: moment, &out)
        try next.apply(event, at: moment, stamp: now, &out)
        next.settle(at: moment, &out)
        next.advance(to: moment, &out)
        next.finish(&out)
        self = next
        return out.effects
    }

    /// The next moment the service must deliver `.timer`: a reminder, a
    /// break's end, a timed pause's end, an unanswered reminder turning
    /// into a skip, a boundary of the active hours, or local midnight.
    public var nextDeadline: Timestamp? {
        (transitions().map(\.at) + [tally.end]).min()
    }

    /// Everything needed to go on after a restart.
    public var snapshot: EngineSnapshot {
        EngineSnapshot(clock: clock, phase: phase, userPause: userPause)
    }

    var schedule: ActiveSchedule { ActiveSchedule(settings: settings, calendar: calendar, timeScale: timeScale) }
    /// The interval as it passes under the time scale, in µs.
    var interval: Int64 { timeScale.wait(settings.interval) }
    /// A reminder falling due now would be held (do-not-disturb with `defer`).
    var holding: Bool { (doNotDisturb && settings.dndPolicy == .defer) || holdingForBusy }

    static func validate(_ event: ReminderEvent) throws(ReminderError) {
        switch event {
        case .snooze(let s) where s != 0 && !snoozeRange.contains(s):
            throw .invalidArgs(tr("Snooze takes 60 to 3600 seconds (0 for the configured SnoozeDuration)."))
        case .pause(let s) where s > maxPause:
            throw .invalidArgs(tr("Pause takes at most 86400 seconds (0 to pause until Resume)."))
        default:
            break
        }
    }

    /// Appends a record and counts it.
    mutating func record(_ outcome: Outcome, at t: Timestamp, seconds: UInt32, _ out: inout Outbox) {
        let r = BreakRecord(at: t, outcome: outcome, seconds: seconds)
        out.effects.append(.record(r))
        tally.count(r, calendar: calendar)
        if outcome == .natural { lastNatural = t }
    }

    /// Announces a reminder that went out during this event and is still out, and follows the day.
    mutating func finish(_ out: inout Outbox) {
        if out.announce, case .due(_, let since, false) = phase {
            out.effects.append(.breakDue(at: since))
        }
        tally.roll(to: clock, calendar: calendar)
    }

    /// Marks `cause` as begun now (the most recent).
    mutating func begin(_ cause: PauseReason) {
        causes.removeAll { $0 == cause }
        causes.append(cause)
    }

    /// The desktop's state when the service starts, applied before any
    /// catching up; an absence counts from `now` (the time the service was
    /// down is not credited as rest: nobody saw the screen then).
    mutating func observeAtStart(doNotDisturb dnd: Bool, locked lock: Bool, at now: Timestamp) {
        setDoNotDisturb(dnd)
        if lock {
            locked = true
            awaySince = now
            begin(.locked)
        }
    }

    /// Marks `cause` as over.
    mutating func end(_ cause: PauseReason) {
        causes.removeAll { $0 == cause }
    }
}
