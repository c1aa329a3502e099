import Glibc
import CSystemd

/// The clocks an sd-event timer can run on.
public enum Clock: Sendable {
    /// Wall-clock time; jumps with NTP and manual changes.
    case realtime
    /// Steady, stops while the machine sleeps.
    case monotonic
    /// Steady, keeps counting through suspend.
    case boottime

    var id: clockid_t {
        switch self {
        case .realtime: return CLOCK_REALTIME
        case .monotonic: return CLOCK_MONOTONIC
        case .boottime: return CLOCK_BOOTTIME
        }
    }

    /// The clock's current time in microseconds (clock_gettime).
    public func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(id, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
    }
}
