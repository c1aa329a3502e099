/// How a break ended. Open: unknown strings from newer versions round-trip.
public struct Outcome: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The countdown ran to its end.
    public static let completed = Outcome(rawValue: "completed")
    /// Skip, pressed or called.
    public static let skipped = Outcome(rawValue: "skipped")
    /// A reminder left unanswered for a whole interval: iCare cannot know it was seen (before 0.6
    /// this was written as `skipped`).
    public static let missed = Outcome(rawValue: "missed")
    /// Locked, idle or asleep for at least one break: the eyes rested anyway.
    public static let natural = Outcome(rawValue: "natural")
    public var description: String { rawValue }
    /// Counted in `CompletedToday`.
    public var countsAsCompleted: Bool { self == .completed || self == .natural }
}

/// One finished break, as `GetHistory` returns it: `(tsu)`.
public struct BreakRecord: Equatable, Sendable {
    /// When it ended.
    public var at: Timestamp
    public var outcome: Outcome
    /// Seconds the eyes rested.
    public var seconds: UInt32
    public init(at: Timestamp, outcome: Outcome, seconds: UInt32) {
        self.at = at
        self.outcome = outcome
        self.seconds = seconds
    }
}
