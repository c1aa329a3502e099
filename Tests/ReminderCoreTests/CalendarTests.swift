@testable import ReminderCore
import Testing

@Suite struct CalendarTests {
    @Test func civilDaysRoundTripAndKnowTheirWeekday() {
        #expect(CivilDay(year: 1970, month: 1, day: 1).number == 0)
        #expect(CivilDay(year: 2000, month: 3, day: 1).number == 11_017)
        #expect(CivilDay(year: 1969, month: 12, day: 31).number == -1)
        #expect(CivilDay(year: 2024, month: 2, day: 29).adding(1).date == (2024, 3, 1))
        #expect(CivilDay(year: 2025, month: 3, day: 24).weekday == 1)  // a Monday
        #expect(CivilDay(year: 2025, month: 3, day: 30).weekday == 7)  // a Sunday
        for n in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let d = CivilDay(number: n).date
            #expect(CivilDay(year: d.year, month: d.month, day: d.day).number == n)
        }
    }

    @Test func offsetCalendarShowsLocalTime() {
        let t = at(2025, 3, 24, "09:20:05", utc)
        #expect(t == 1_742_808_005 * Micro.second)
        #expect(cet.local(t) == LocalDateTime(year: 2025, month: 3, day: 24, weekday: 1, hour: 10, minute: 20, second: 5))
        #expect(cet.local(at(2025, 3, 31, "07:20", utc)).hour == 9)  // summer time
        #expect(OffsetCalendar(offsetSeconds: -5 * 3600).local(0).description == "1969-12-31 19:00:00")
        #expect(cet.local(-1).description == "1970-01-01 00:59:59")
    }

    @Test func aTimeInTheSpringGapIsTheFirstInstantAfterIt() {
        // 30 March 2025: 02:00 CET jumps to 03:00 CEST; 02:30 never happens.
        let change = 1_743_296_400 * Micro.second
        #expect(at(2025, 3, 30, "02:30") == change)
        #expect(at(2025, 3, 30, "02:00") == change)
        #expect(at(2025, 3, 30, "03:00") == change)
        #expect(at(2025, 3, 30, "01:59") == change - Micro.seconds(60))
        #expect(at(2025, 3, 30, "03:01") == change + Micro.seconds(60))
    }

    @Test func aTimeInTheAutumnOverlapIsTheEarlierInstant() {
        // 26 October 2025: 03:00 CEST goes back to 02:00 CET; 02:30 happens twice.
        let change = 1_761_440_400 * Micro.second
        #expect(at(2025, 10, 26, "02:30") == change - Micro.seconds(1800))
        #expect(cet.local(change + Micro.seconds(1800)).description == "2025-10-26 02:30:00")
        #expect(at(2025, 10, 26, "03:00") == change + Micro.seconds(3600))
    }

    @Test func theSystemCalendarRoundTripsAnOrdinaryNoon() {
        let system = SystemCalendar()
        let noon = system.timestamp(year: 2025, month: 1, day: 15, time: TimeOfDay(hour: 12, minute: 0)!)
        let local = system.local(noon)
        #expect(local.year == 2025 && local.month == 1 && local.day == 15)
        #expect(local.hour == 12 && local.minute == 0 && local.second == 0)
        #expect(local.weekday == 3)  // a Wednesday
        SystemCalendar.reloadTimeZone()
        #expect(system.local(noon) == local)
    }

    @Test func theSystemCalendarAgreesWithTheResolverAroundTheYear() {
        // Whatever the machine's zone, every local time maps to an instant that shows it, or lies in a gap.
        let system = SystemCalendar()
        for month in 1...12 {
            for hour in [0, 1, 2, 3, 12, 23] {
                let t = system.timestamp(year: 2025, month: month, day: 15, time: TimeOfDay(hour: hour, minute: 30)!)
                let l = system.local(t)
                #expect(l.day == 15 && l.month == month)
                #expect(l.hour == hour || l.hour == hour + 1, "a shown hour may only move forward, out of a gap")
            }
        }
    }
}
