/// A deterministic calendar: a fixed UTC offset plus an optional list of
/// offset changes (daylight-saving transitions) at given instants. Tests and
/// simulations use it so they never depend on the machine's time zone.
public struct OffsetCalendar: LocalCalendar {
    /// From `at` on, the UTC offset is `offsetSeconds`.
    public struct Transition: Equatable, Sendable {
        /// The instant of the change.
        public var at: Timestamp
        /// The UTC offset in seconds from then on (east positive: CET is 3600).
        public var offsetSeconds: Int
        /// A change of offset at an instant.
        public init(at: Timestamp, offsetSeconds: Int) {
            self.at = at
            self.offsetSeconds = offsetSeconds
        }
    }

    /// The offset before the first transition.
    public let baseOffsetSeconds: Int
    /// The changes, sorted by instant.
    public let transitions: [Transition]

    /// A calendar at `offsetSeconds` from UTC, changing at `transitions`.
    public init(offsetSeconds: Int = 0, transitions: [Transition] = []) {
        baseOffsetSeconds = offsetSeconds
        self.transitions = transitions.sorted { $0.at < $1.at }
    }

    /// The UTC offset in seconds in force at `t`.
    public func offsetSeconds(at t: Timestamp) -> Int {
        transitions.last(where: { $0.at <= t })?.offsetSeconds ?? baseOffsetSeconds
    }

    /// The local date and time at `t`.
    public func local(_ t: Timestamp) -> LocalDateTime {
        let utc = t.floorDivided(by: Micro.second)
        let wall = utc + Int64(offsetSeconds(at: utc * Micro.second))
        let dayNumber = wall.floorDivided(by: 86_400)
        let secondOfDay = Int(wall - dayNumber * 86_400)
        let day = CivilDay(number: dayNumber)
        let date = day.date
        return LocalDateTime(year: date.year, month: date.month, day: date.day, weekday: day.weekday,
                             hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60)
    }

    /// The instant a local date shows `time` (gap: the transition; overlap: the earlier instant).
    public func timestamp(year: Int, month: Int, day: Int, time: TimeOfDay) -> Timestamp {
        let wall = CivilDay(year: year, month: month, day: day).number * 86_400 + Int64(time.minutes) * 60
        let utc = LocalTimeResolver.resolve(localSeconds: wall) { Int64(offsetSeconds(at: $0 * Micro.second)) }
        return utc * Micro.second
    }
}

extension Int64 {
    /// Division rounding toward negative infinity (times before 1970 stay on the right day).
    func floorDivided(by d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
