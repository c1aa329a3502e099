/// How many break records clients may cause in a while: a token bucket, so
/// that nobody on the session bus can flood the history (every `Skip`
/// writes a record) while a person never meets the limit.
///
/// It holds `capacity` records and earns one back every `refill` of
/// schedule time: at the real pace a burst of 20 and then one a minute,
/// where a working day has one break every 15 minutes at the most. Under a
/// time scale the refill is that many times faster, like the schedule.
public struct RecordBudget: Equatable, Sendable {
    /// Records that may be written at once.
    public static let capacity = 20
    /// Real time to earn one record back at scale 1, in µs.
    public static let refill: Int64 = 60 * Micro.second

    /// What may be spent now, as schedule time earned: a record costs
    /// `refill`, and each real µs earns `factor` µs (exact, no rounding).
    private var available: Int64
    private var updated: Int64
    private let factor: Int64

    private static var full: Int64 { Int64(capacity) * refill }

    /// A full budget at `now` (µs on a monotonic clock) for a time scale `factor`.
    public init(now: Int64, factor: UInt32 = 1) {
        available = Self.full
        updated = now
        self.factor = Int64(max(1, factor))
    }

    /// Spends `count` records at `now` if the budget has them; false (and
    /// nothing spent) if not.
    public mutating func spend(_ count: Int, at now: Int64) -> Bool {
        let elapsed = max(0, now - updated)
        updated = max(updated, now)
        let earned = elapsed.multipliedReportingOverflow(by: factor)
        available = earned.overflow || earned.partialValue >= Self.full - available ? Self.full : available + earned.partialValue
        let cost = Int64(count) * Self.refill
        guard available >= cost else { return false }
        available -= cost
        return true
    }
}
