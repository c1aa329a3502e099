/// How many times faster than real time the schedule runs: a demo and test
/// aid (`icared --time-scale N`, `ICARE_TIME_SCALE`). At 60 a 20-minute
/// interval passes in 20 seconds. What it scales: the interval, a snooze and
/// a timed pause (the waits between breaks). What it leaves real: the break
/// countdown (a 20-second break scaled to a third of a second would show
/// nothing), the idle and away thresholds and natural rest (they are
/// measured against a break's length and a person's real absence), and the
/// active hours and local midnight (wall-clock times of day). The settings
/// keep their ranges: the scale divides the waits, not the values.
public struct TimeScale: Equatable, Sendable, CustomStringConvertible {
    /// The factors accepted: 1 (real time) to 3600 (an hour a second).
    public static let allowed: ClosedRange<UInt32> = 1...3600
    /// Real time.
    public static let real = TimeScale(checked: 1)

    /// How many times faster than real time.
    public let factor: UInt32

    /// A scale of `factor`; nil outside `allowed`.
    public init?(_ factor: UInt32) {
        guard Self.allowed.contains(factor) else { return nil }
        self.factor = factor
    }

    /// A scale from text: a whole number in `allowed` (`"60"`); nil for anything else.
    public init?(parsing text: String) {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let n = UInt32(text) else { return nil }
        self.init(n)
    }

    private init(checked factor: UInt32) { self.factor = factor }

    /// Whether this is real time.
    public var isReal: Bool { factor == 1 }

    /// A wait of the schedule that is `seconds` long in real time, scaled, in µs.
    public func wait(_ seconds: UInt32) -> Int64 { Micro.seconds(seconds) / Int64(factor) }

    public var description: String { String(factor) }
}
