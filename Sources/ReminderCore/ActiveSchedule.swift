/// When reminders may go out: the active hours and the weekdays-only rule
/// laid over the local calendar, as stretches of instants.
///
/// Each local day D may open one period: `[D start, D end)` for ordinary
/// hours, `[D start, D+1 end)` for hours that span midnight, the whole day
/// when there are no active hours. With weekdays-only a period belongs to
/// the day it *starts* on: Friday 22:00–Saturday 06:00 is active, Sunday
/// 22:00–Monday 06:00 is not. Periods that touch (whole days) merge into
/// one stretch. Boundaries are instants from `LocalCalendar.timestamp`, so
/// DST gaps and overlaps follow its rule.
struct ActiveSchedule {
    let hours: ActiveHours?
    let weekdaysOnly: Bool
    let interval: Int64
    let calendar: any LocalCalendar

    /// `interval` is the settings' `Interval` under `timeScale`.
    init(settings: Settings, calendar: any LocalCalendar, timeScale: TimeScale = .real) {
        hours = settings.activeHours
        weekdaysOnly = settings.weekdaysOnly
        interval = timeScale.wait(settings.interval)
        self.calendar = calendar
    }

    /// No active hours and every day: one endless stretch.
    var alwaysActive: Bool { hours == nil && !weekdaysOnly }

    /// The period that begins on local day `d`, if any (empty ones count as none).
    func period(beginningOn d: CivilDay) -> Range<Timestamp>? {
        if weekdaysOnly, d.weekday > 5 { return nil }
        let lower: Timestamp, upper: Timestamp
        if let h = hours {
            lower = calendar.timestamp(d, h.start)
            upper = calendar.timestamp(h.spansMidnight ? d.adding(1) : d, h.end)
        } else {
            lower = calendar.timestamp(d, .midnight)
            upper = calendar.timestamp(d.adding(1), .midnight)
        }
        return lower < upper ? lower..<upper : nil
    }

    /// The period that contains `t`, if any.
    func period(containing t: Timestamp) -> Range<Timestamp>? {
        let d = calendar.civilDay(of: t)
        for day in [d.adding(-1), d, d.adding(1)] {
            if let p = period(beginningOn: day), p.contains(t) { return p }
        }
        return nil
    }

    /// Whether reminders may go out at `t`.
    func isActive(_ t: Timestamp) -> Bool {
        alwaysActive || period(containing: t) != nil
    }

    /// The end of the stretch that contains `t`; nil when `t` is inactive or the stretch never ends.
    func activeEnd(containing t: Timestamp) -> Timestamp? {
        guard !alwaysActive, let p = period(containing: t) else { return nil }
        var end = p.upperBound
        for _ in 0..<8 {
            guard let next = period(beginningOn: calendar.civilDay(of: end)), next.lowerBound == end else { break }
            end = next.upperBound
        }
        return end
    }

    /// The start of the stretch that contains `t`; nil when `t` is inactive or the stretch never began.
    func activeStart(containing t: Timestamp) -> Timestamp? {
        guard !alwaysActive, let p = period(containing: t) else { return nil }
        var start = p.lowerBound
        for _ in 0..<8 {
            guard let previous = period(beginningOn: calendar.civilDay(of: start).adding(-1)),
                  previous.upperBound == start else { break }
            start = previous.lowerBound
        }
        return start
    }

    /// The first period start after an inactive instant `t` (or the end of a stretch).
    func nextActiveStart(after t: Timestamp) -> Timestamp? {
        guard !alwaysActive else { return nil }
        let d = calendar.civilDay(of: t)
        for i in -1...10 {
            if let p = period(beginningOn: d.adding(i)), p.lowerBound > t { return p.lowerBound }
        }
        return nil
    }

    /// The first reminder of the next active period after `t`: one interval
    /// after the period starts; a period shorter than an interval has none.
    func firstReminder(after t: Timestamp) -> Timestamp? {
        var from = t
        for _ in 0..<16 {
            guard let start = nextActiveStart(after: from) else { return alwaysActive ? t + interval : nil }
            let end = activeEnd(containing: start) ?? .max
            if start + interval < end { return start + interval }
            from = end
        }
        return nil
    }

    /// When a reminder planned for `r` really goes out, seen from the active
    /// instant `now`: `r` itself, or when the stretch ends first, the first
    /// reminder of the next period.
    func projected(_ r: Timestamp, from now: Timestamp) -> Timestamp? {
        guard !alwaysActive else { return r }
        guard isActive(now) else { return firstReminder(after: now) }
        guard let end = activeEnd(containing: now), r >= end else { return r }
        return firstReminder(after: end)
    }

    /// The reminder that ends an interval starting at `start` (a pause or a break ending then).
    func reminder(afterIntervalFrom start: Timestamp) -> Timestamp? {
        guard isActive(start) else { return firstReminder(after: start) }
        return projected(start + interval, from: start)
    }
}
