/// The local calendar the schedule follows: the engine's only view of time
/// zones and daylight-saving time. Injected, so tests run on a fixed calendar.
public protocol LocalCalendar: Sendable {
    /// The local date and time at `t`.
    func local(_ t: Timestamp) -> LocalDateTime

    /// The instant a local date shows `time`. In a daylight-saving gap (a
    /// time that never occurs) the first valid instant after it; in an
    /// overlap (a time that occurs twice) the earlier one.
    func timestamp(year: Int, month: Int, day: Int, time: TimeOfDay) -> Timestamp
}

extension LocalCalendar {
    /// The local day that contains `t`.
    func civilDay(of t: Timestamp) -> CivilDay {
        let l = local(t)
        return CivilDay(year: l.year, month: l.month, day: l.day)
    }

    /// The instant a local day shows `time`.
    func timestamp(_ day: CivilDay, _ time: TimeOfDay) -> Timestamp {
        let d = day.date
        return timestamp(year: d.year, month: d.month, day: d.day, time: time)
    }

    /// Local midnight starting the day that contains `t`.
    func startOfDay(containing t: Timestamp) -> Timestamp {
        timestamp(civilDay(of: t), .midnight)
    }

    /// Local midnight ending the day that contains `t`.
    func endOfDay(containing t: Timestamp) -> Timestamp {
        timestamp(civilDay(of: t).adding(1), .midnight)
    }
}

extension TimeOfDay {
    /// 00:00.
    static let midnight = TimeOfDay(hour: 0, minute: 0)!
}
