@testable import ReminderCore
import Testing

@Suite struct ActiveScheduleTests {
    func schedule(_ hours: String, weekdaysOnly: Bool = false, calendar: OffsetCalendar = cet) -> ActiveSchedule {
        ActiveSchedule(settings: settings([.activeHours: .string(hours), .weekdaysOnly: .bool(weekdaysOnly)]),
                       calendar: calendar)
    }

    @Test func ordinaryHoursStartInclusiveEndExclusive() {
        let s = schedule("09:00-17:30")
        #expect(!s.isActive(at(2025, 3, 24, "08:59:59")))
        #expect(s.isActive(at(2025, 3, 24, "09:00")))
        #expect(s.isActive(at(2025, 3, 24, "17:29:59")))
        #expect(!s.isActive(at(2025, 3, 24, "17:30")))
        #expect(s.activeEnd(containing: at(2025, 3, 24, "12:00")) == at(2025, 3, 24, "17:30"))
        #expect(s.activeStart(containing: at(2025, 3, 24, "12:00")) == at(2025, 3, 24, "09:00"))
        #expect(s.nextActiveStart(after: at(2025, 3, 24, "18:00")) == at(2025, 3, 25, "09:00"))
        #expect(s.firstReminder(after: at(2025, 3, 24, "18:00")) == at(2025, 3, 25, "09:20"))
    }

    @Test func hoursOverMidnightBelongToTheDayTheyStart() {
        let s = schedule("22:00-06:00", weekdaysOnly: true)
        #expect(s.isActive(at(2025, 3, 28, "23:00")))   // Friday night
        #expect(s.isActive(at(2025, 3, 29, "05:00")))   // Saturday morning: Friday's span
        #expect(!s.isActive(at(2025, 3, 29, "23:00")))  // Saturday night
        #expect(!s.isActive(at(2025, 3, 31, "05:00")))  // Monday morning: Sunday's span
        #expect(s.isActive(at(2025, 3, 31, "22:30")))
        #expect(s.activeEnd(containing: at(2025, 3, 28, "23:00")) == at(2025, 3, 29, "06:00"))
        #expect(s.nextActiveStart(after: at(2025, 3, 29, "07:00")) == at(2025, 3, 31, "22:00"))
    }

    @Test func weekdaysOnlyWithoutHoursIsMondayToFriday() {
        let s = ActiveSchedule(settings: settings([.weekdaysOnly: .bool(true)]), calendar: cet)
        #expect(s.isActive(at(2025, 3, 28, "23:59")))
        #expect(!s.isActive(at(2025, 3, 29, "00:00")))
        #expect(s.activeEnd(containing: at(2025, 3, 25, "10:00")) == at(2025, 3, 29, "00:00"))
        #expect(s.activeStart(containing: at(2025, 3, 27, "10:00")) == at(2025, 3, 24, "00:00"))
        #expect(s.nextActiveStart(after: at(2025, 3, 29, "12:00")) == at(2025, 3, 31, "00:00"))
        let always = ActiveSchedule(settings: Settings(), calendar: cet)
        #expect(always.isActive(at(2025, 3, 29, "12:00")) && always.activeEnd(containing: 0) == nil)
    }

    @Test func boundariesFollowDaylightSavingTime() {
        let s = schedule("01:30-03:30")
        // On the spring day 02:00–03:00 does not exist: the span is 01:30 CET to 03:30 CEST, one hour long.
        let start = at(2025, 3, 30, "01:30"), end = at(2025, 3, 30, "03:30")
        #expect(end - start == Micro.seconds(3600))
        #expect(s.isActive(start) && !s.isActive(end))
        #expect(s.firstReminder(after: at(2025, 3, 30, "00:00")) == start + Micro.seconds(1200))
        // 02:00-03:00 is empty on the spring day: the next reminder after Saturday is Monday's.
        let gap = ActiveSchedule(settings: settings([.activeHours: .string("02:00-03:00"), .interval: .uint(2700)]),
                                 calendar: cet)
        #expect(gap.firstReminder(after: at(2025, 3, 29, "12:00")) == at(2025, 3, 31, "02:45"))
        // A period shorter than one interval never has a reminder.
        let short = ActiveSchedule(settings: settings([.activeHours: .string("02:00-02:40"), .interval: .uint(2700)]),
                                   calendar: cet)
        #expect(short.firstReminder(after: at(2025, 3, 29, "12:00")) == nil)
    }
}
