/// The today counters: records of the local day `[start, end)`.
struct DayTally: Equatable, Sendable {
    var start: Timestamp
    var end: Timestamp
    var completed: UInt32 = 0
    var skipped: UInt32 = 0
    var missed: UInt32 = 0

    /// Empty counters for the local day containing `t`.
    init(containing t: Timestamp, calendar: any LocalCalendar) {
        start = calendar.startOfDay(containing: t)
        end = calendar.endOfDay(containing: t)
    }

    /// Counts `record` if it ended on the current day, moving to a later day first when it did.
    mutating func count(_ record: BreakRecord, calendar: any LocalCalendar) {
        if record.at >= end { self = DayTally(containing: record.at, calendar: calendar) }
        guard record.at >= start else { return }
        if record.outcome.countsAsCompleted {
            completed &+= 1
        } else if record.outcome == .skipped {
            skipped &+= 1
        } else if record.outcome == .missed {
            missed &+= 1
        }
    }

    /// Follows the clock to `t`: a later day starts from zero. An earlier day
    /// (the clock went back over midnight) keeps the counts, as they cannot be recounted here.
    mutating func roll(to t: Timestamp, calendar: any LocalCalendar) {
        if t >= end {
            self = DayTally(containing: t, calendar: calendar)
        } else if t < start {
            let kept = self
            self = DayTally(containing: t, calendar: calendar)
            completed = kept.completed
            skipped = kept.skipped
            missed = kept.missed
        }
    }
}

extension DayTally {
    /// Recomputes the day's bounds after a time-zone change; the counts stay
    /// unless the clock is now on a later local day.
    mutating func rebase(to t: Timestamp, calendar: any LocalCalendar) {
        let fresh = DayTally(containing: t, calendar: calendar)
        let later = fresh.start >= end
        let kept = self
        self = fresh
        if !later {
            completed = kept.completed
            skipped = kept.skipped
            missed = kept.missed
        }
    }
}
