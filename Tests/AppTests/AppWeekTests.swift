import Foundation
import Testing
import TestSupport

/// The last seven days and "today" as a person meets them: the chart's days
/// named for screen readers with both counts (history made by real breaks and
/// skips on the real icared), in English and Dutch, and a new local day
/// reached at midnight without polling.
@Suite struct AppWeekTests {
    /// The weekday's full name of `date` in `zone`, in English (the app's C.UTF-8 words) or another locale.
    static func weekday(_ date: Date, zone: TimeZone = .current, locale: String = "en_US_POSIX") -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: locale)
        f.timeZone = zone
        f.dateFormat = "EEEE"
        return f.string(from: date)
    }

    /// The chart's days (images named "Weekday: n completed, m skipped"), oldest first.
    /// The days of the chart: images named "Weekday: N completed, N skipped" (", N missed" when there was one).
    static func chart(_ home: [Element], _ suffixes: [String] = [" skipped", " missed"]) -> [String] {
        home.filter { e in e.role == "image" && e.name.contains(": ") && suffixes.contains { e.name.hasSuffix($0) } }.map(\.name)
    }

    /// A completed break, two skipped ones and a reminder left unanswered, made through the service's own
    /// methods and clock: today's day in the chart says the three counts, the day's figures (completed/not
    /// taken) show under its bars, the six days before say 0.
    @Test func theChartShowsCompletedAgainstSkippedAndMissedForEachDay() throws {
        // 60 times faster for the interval; the break is its real 10 s.
        let rig = try AppRig(config: AppRig.config + "Interval = 900\n", serviceArguments: ["--log-stderr", "--time-scale", "60"])
        defer { rig.stop() }
        let s = rig.service
        try rig.waitForHome("the home view") { $0.contains { $0.name.hasPrefix("Next break at ") || $0.name == "Time for an eye break" } }
        try s.call("StartBreak")
        try AppHomeTests.waitForState(s, "break")
        try s.call("Skip")
        try AppHomeTests.waitForState(s, "waiting")
        try s.call("StartBreak")
        try AppHomeTests.waitForState(s, "break")
        try s.call("Skip")
        try AppHomeTests.waitForState(s, "waiting")
        // The next reminder (15 s away at this scale) left unanswered for a whole interval: missed, not skipped.
        #expect(try waitUntil(timeout: 60, interval: 0.2) { try s.number("MissedToday") == 1 }, "no missed reminder: \(s.log)")
        try rig.press("Start break now")
        try AppHomeTests.waitForState(s, "break")
        let today = Self.weekday(Date())
        // All seven days: a read of the accessibility tree while the chart is rebuilt can miss one.
        let home = try rig.waitForHome(timeout: 30, "today's day in the chart with both counts") {
            Self.chart($0).contains("\(today): 1 completed, 2 skipped, 1 missed") && Self.chart($0).count == 7
        }
        let days = Self.chart(home)
        #expect(days.count == 7, "seven days: \(days)")
        #expect(days.last == "\(today): 1 completed, 2 skipped, 1 missed", "today last: \(days)")
        let before = (1...6).reversed().map { Self.weekday(Date().addingTimeInterval(Double(-$0) * 86400)) + ": 0 completed, 0 skipped" }
        #expect(Array(days.prefix(6)) == before, "\(days)")
        #expect(home.contains { $0.role == "label" && $0.name == "1/3" }, "today's figures under its bars: \(home.filter { $0.role == "label" })")
        #expect(home.contains { $0.role == "label" && $0.name == "Filled bars: completed. Outlined bars: skipped or missed. Under each day: completed/not taken." })
        #expect(try s.number("CompletedToday") == 1 && s.number("SkippedToday") == 2 && s.number("MissedToday") == 1)
        #expect(home.contains { $0.name.hasSuffix("  missed") }, "today's list names the missed reminder: \(home.map(\.name))")
    }

    @Test func theChartSpeaksDutch() throws {
        let environment = try AppDutchTests.dutch()
        let rig = try AppRig(appEnvironment: environment)
        defer { rig.stop() }
        let s = rig.service
        try s.call("StartBreak")
        try AppHomeTests.waitForState(s, "break")
        try s.call("Skip")
        let today = Self.weekday(Date(), locale: "nl_NL")
        let home = try rig.waitForHome("the Dutch chart") { Self.chart($0, [" overgeslagen"]).contains("\(today): 0 voltooid, 1 overgeslagen") }
        #expect(Self.chart(home, [" overgeslagen"]).count == 7, "\(home)")
        #expect(home.contains { $0.role == "label" && $0.name.hasPrefix("Gevulde balken: voltooid.") }, "the legend: \(home.filter { $0.role == "label" })")
    }

    /// The app's local midnight comes 40 s after the skip (its TZ is set so; icared keeps the machine's):
    /// the skip moves to yesterday in the chart and today's list empties, with no signal from icared,
    /// which does not reach its own midnight meanwhile. Only the app's timer at its midnight does it.
    @Test func aNewDayAtLocalMidnight() throws {
        // A POSIX TZ whose local time is now 23:59:20 (POSIX counts the offset west of UTC).
        let now = Date()
        let utcSeconds = Int(now.timeIntervalSince1970) % 86400
        var east = (86400 - 40 - utcSeconds) % 86400
        if east > 43200 { east -= 86400 }
        let west = -east
        let sign = west < 0 ? "-" : "+"
        let a = abs(west)
        let tz = String(format: "ICT%@%02d:%02d:%02d", sign, a / 3600, a / 60 % 60, a % 60)
        // The app's local day, as UTC shifted by the offset (Foundation's zones round an offset to whole minutes).
        func appWeekday(_ d: Date) -> String { Self.weekday(d.addingTimeInterval(Double(east)), zone: TimeZone(identifier: "UTC")!) }
        let rig = try AppRig(appEnvironment: ["TZ": tz])
        defer { rig.stop() }
        let s = rig.service
        try rig.waitForHome("the home view") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        try s.call("StartBreak")
        try AppHomeTests.waitForState(s, "break")
        try s.call("Skip")
        let dayOne = appWeekday(now)
        let skipped = try rig.waitForHome("the skip today") { Self.chart($0).last == "\(dayOne): 0 completed, 1 skipped" }
        #expect(!skipped.contains { $0.name == "No breaks yet today." })
        let midnight = now.addingTimeInterval(40)
        try #require(Date() < midnight.addingTimeInterval(-5), "the skip must show before the app's midnight (this host is too slow)")
        let dayTwo = appWeekday(midnight.addingTimeInterval(1))
        // The tree is read while GTK may still be swapping the chart's days: wait for the whole new week.
        let after = try rig.waitForHome(timeout: 60, "the new day") {
            Self.chart($0).count == 7 && Self.chart($0).last == "\(dayTwo): 0 completed, 0 skipped"
                && $0.contains { $0.role == "label" && $0.name == "No breaks yet today." }
        }
        let days = Self.chart(after)
        #expect(days.count == 7 && days[5] == "\(dayOne): 0 completed, 1 skipped", "yesterday keeps the skip: \(days)")
        #expect(after.contains { $0.role == "label" && $0.name == "No breaks yet today." }, "\(after.filter { $0.role == "label" })")
        #expect(Date() >= midnight.addingTimeInterval(-1), "not before the app's midnight")
    }
}
