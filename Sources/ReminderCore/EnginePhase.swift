/// Where the reminder cycle stands, under any pauses and active hours.
/// `start` is when the current interval began (used to bound an idle span).
enum EnginePhase: Equatable, Sendable {
    /// Counting down to `next`.
    case waiting(start: Timestamp, next: Timestamp)
    /// A reminder went out at `since` (or fell due then, when `held`).
    case due(start: Timestamp, since: Timestamp, held: Bool)
    /// A reminder was snoozed until `until`.
    case snoozed(start: Timestamp, until: Timestamp)
    /// A break's countdown runs from `start` to `ends`.
    case running(start: Timestamp, ends: Timestamp)
    /// No cycle: paused or inactive. A full interval starts when reminders may go out again.
    case off

    /// The start of the interval for waiting, due and snoozed.
    var intervalStart: Timestamp? {
        switch self {
        case .waiting(let s, _), .due(let s, _, _), .snoozed(let s, _): return s
        case .running, .off: return nil
        }
    }

    /// Whether the cycle counts toward a reminder (waiting, due, snoozed).
    var isCycling: Bool { intervalStart != nil }

    /// The same phase with every instant moved by `d` (the clock went back).
    func shifted(by d: Int64) -> EnginePhase {
        switch self {
        case .waiting(let s, let n): return .waiting(start: s + d, next: n + d)
        case .due(let s, let since, let held): return .due(start: s + d, since: since + d, held: held)
        case .snoozed(let s, let u): return .snoozed(start: s + d, until: u + d)
        case .running(let s, let e): return .running(start: s + d, ends: e + d)
        case .off: return .off
        }
    }
}
