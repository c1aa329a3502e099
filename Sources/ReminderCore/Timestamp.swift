/// Microseconds since the Unix epoch on the wall clock; 0 means "none"
/// (the systemd convention, and the `t` values of `org.icare.Reminder`).
public typealias Timestamp = Int64

/// Conversions between the units the service speaks.
public enum Micro {
    /// One second in microseconds.
    public static let second: Int64 = 1_000_000
    /// `n` seconds in microseconds.
    public static func seconds<T: BinaryInteger>(_ n: T) -> Int64 { Int64(n) * second }
}
