import Testing
import Foundation
import TestSupport

/// Where nobody owns org.freedesktop.Notifications (a bare private bus, a
/// server-less terminal session), the cycle shows in icared's log instead:
/// `--log-stderr` puts it on the terminal.
@Suite struct NoNotificationServerTests {
    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func theReminderTheBreakAndItsEndAppearInTheLogOnceEach() throws {
        let s = try ServiceHarness(config: "BreakDuration = 10s\n", start: false)
        defer { s.stop() }
        // 600 times faster: a reminder every 2 s, the break 10 real seconds.
        try s.start(arguments: ["--log-stderr", "--time-scale", "600"])
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }
        let reminder = "Time for an eye break: look at something 20 feet (6 m) away for 10 seconds. Run 'icarectl start' to count the break."
        #expect(s.log.contains("No notification server on the session bus"), "\(s.log)")
        #expect(try waitUntil(timeout: 5) { try s.string("State") == "due" }, "log:\n\(s.log)")
        #expect(waitUntil(timeout: 2) { s.log.contains(reminder) }, "log:\n\(s.log)")

        #expect(try s.call("StartBreak").status == 0)
        #expect(waitUntil(timeout: 2) { s.log.contains("Break started: look far away for 10 seconds") }, "log:\n\(s.log)")
        #expect(try waitUntil(timeout: 15, interval: 0.2) { try s.number("CompletedToday") == 1 }, "log:\n\(s.log)")
        #expect(waitUntil(timeout: 2) { s.log.contains("Break complete. Well done. Next break at ") }, "log:\n\(s.log)")
        // The next reminder follows two seconds later; then stop and count.
        #expect(waitUntil(timeout: 5) { monitor.signals("BreakDue").count >= 2 })
        #expect(try s.signal(SIGTERM) == 0)
        let log = s.log
        #expect(count("Break started:", in: log) == 1, "the countdown is logged once, not every second:\n\(log)")
        #expect(count("Break complete.", in: log) == 1, "\(log)")
        // One line per reminder that went out, however often the state changed in between.
        #expect(waitUntil(timeout: 2) { count(reminder, in: log) == monitor.signals("BreakDue").count },
                "\(count(reminder, in: log)) logged, \(monitor.signals("BreakDue").count) BreakDue:\n\(log)")
    }
}
