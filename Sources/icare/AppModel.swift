import DBusKit
import SystemdKit
import ReminderCore
import ReminderClient

/// One day of the chart.
struct DayCount: Equatable {
    let date: LocalDate
    var completed = 0
    var skipped = 0
    var missed = 0
    /// Skipped and missed: the chart's outlined bar.
    var notTaken: Int { skipped + missed }
    var words: String { TallyText.counts(completed: completed, skipped: skipped, missed: missed) }
}

/// The app's view of the service: icarectl's live feed (signals and
/// `PropertiesChanged`, never polling) plus the history of the last seven
/// days, read again when a break ends or the day's tallies change.
final class AppModel {
    let feed: LiveFeed
    let time = TimeText(calendar: .system)
    /// Today's records, oldest first.
    private(set) var today: [BreakRecord] = []
    /// The last seven days, oldest first; the last one is today.
    private(set) var week: [DayCount] = []
    /// Called after anything changed.
    var onChange: () -> Void = {}
    /// Called with a sentence when a call failed.
    var onError: (String) -> Void = { _ in }
    private var historyGeneration = 0
    /// A timer at the next local midnight (re-armed each time), and the wall clock's changes (an NTP step,
    /// a manual change, a resume with a corrected clock): "today" and the seven days move on without polling.
    private var midnight: EventSource?
    private var clockChange: EventSource?

    init(loop: EventLoop) throws(CLIError) {
        feed = try LiveFeed(loop: loop)
    }

    var status: ServiceStatus? { feed.status }

    /// Real time now, µs.
    static func now() -> Timestamp { Timestamp(Clock.realtime.now()) }

    func start() {
        feed.onEvent = { [unowned self] event in
            switch event {
            case .snapshot, .service(running: true): self.readHistory()
            case .signal(let name, _) where ["BreakCompleted", "BreakSkipped", "BreakMissed"].contains(name): self.readHistory()
            case .properties(let changes) where changes.contains { ["CompletedToday", "SkippedToday", "MissedToday"].contains($0.0) }:
                self.readHistory()
            default: break
            }
            self.onChange()
        }
        feed.onProblem = { [unowned self] in self.onChange() }
        feed.start()
        armMidnight()
        clockChange = try? feed.loop.addTimeChange { [unowned self] in self.dayMayHaveChanged() }
    }

    /// The start of tomorrow, local time, from `now`.
    func nextMidnight(after now: Timestamp) -> Timestamp {
        time.calendar.startOfDay(time.calendar.local(now).date.adding(days: 1))
    }

    /// One timer on the wall clock at the next local midnight (sd-event's realtime timerfd: it fires
    /// after a suspend across midnight too, and when the clock is set past it).
    private func armMidnight() {
        let at = UInt64(max(0, nextMidnight(after: AppModel.now())))
        if let midnight {
            midnight.setTime(at)
            midnight.setEnabled(.oneshot)
        } else {
            midnight = try? feed.loop.addTimer(clock: .realtime, at: at, accuracy: 1000) { [unowned self] in self.dayMayHaveChanged() }
        }
    }

    /// A new day (or a clock set to another one): the seven days and today's list again, the timer re-armed.
    private func dayMayHaveChanged() {
        armMidnight()
        guard feed.status != nil else { return }
        readHistory()
        onChange()
    }

    /// Asks the service again (the "Try again" button while it is absent; it activates the service).
    func retry() { feed.refresh() }

    /// Calls a method of the service; a failure's sentence goes to `onError`.
    func call(_ member: String, _ args: [DBusValue] = []) {
        feed.call(member, args) { [weak self] problem in
            if let problem { self?.onError(problem) }
        }
    }

    func set(_ key: SettingKey, _ value: SettingValue) {
        guard feed.status?.settings[key] != value else { return }
        feed.set(key, value) { [weak self] problem in
            if let problem { self?.onError(problem) }
        }
    }

    /// Reads the records of the last seven days (one call) and counts them by local day.
    func readHistory() {
        historyGeneration += 1
        let mine = historyGeneration
        let now = AppModel.now()
        let todayDate = time.calendar.local(now).date
        let first = todayDate.adding(days: -6)
        feed.history(from: time.calendar.startOfDay(first), to: now + 60 * Micro.second) { [weak self] records in
            guard let self, mine == self.historyGeneration, let records else { return }
            var days = (0..<7).map { DayCount(date: first.adding(days: $0)) }
            var todays: [BreakRecord] = []
            for r in records {
                let d = self.time.calendar.local(r.at).date
                let i = d.daysSinceEpoch - first.daysSinceEpoch
                guard (0..<7).contains(i) else { continue }
                if r.outcome.countsAsCompleted {
                    days[i].completed += 1
                } else if r.outcome == .skipped {
                    days[i].skipped += 1
                } else if r.outcome == .missed {
                    days[i].missed += 1
                }
                if d == todayDate { todays.append(r) }
            }
            self.week = days
            self.today = todays
            self.onChange()
        }
    }
}
