import Testing
import Foundation
import TestSupport

/// `icared --time-scale N` (and `ICARE_TIME_SCALE`): the real service, its
/// schedule N times faster, its breaks in real seconds.
@Suite struct TimeScaleServiceTests {
    func nowMicros() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1_000_000) }

    @Test func aScaledServiceComesDueInSecondsAndItsBreakStaysReal() throws {
        // The command line wins over the environment.
        let s = try ServiceHarness(config: "BreakDuration = 10s\n", environment: ["ICARE_TIME_SCALE": "1200"], start: false)
        defer { s.stop() }
        let started = nowMicros()
        try s.start(arguments: ["--log-stderr", "--time-scale", "600"])
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }
        #expect(try s.number("TimeScale") == 600)
        #expect(try s.number("Interval") == 1200, "the setting is unchanged")
        #expect(s.log.contains("Time scale 600"), "\(s.log)")
        // 1200 s / 600: the reminder two seconds after the start, a real instant.
        let next = try s.number("NextBreak")
        #expect(next >= started + 1_500_000 && next <= nowMicros() + 2_000_000, "NextBreak \(next), started \(started)")
        #expect(try waitUntil(timeout: 5) { try s.string("State") == "due" }, "log:\n\(s.log)")
        #expect(waitUntil(timeout: 2) { monitor.signals("BreakDue").count == 1 })

        // A snooze of 10 minutes comes back in one second.
        let snoozedAt = nowMicros()
        #expect(try s.call("Snooze", "u", "600").status == 0)
        #expect(try s.string("State") == "snoozed")
        #expect(try waitUntil(timeout: 5) { try s.string("State") == "due" }, "log:\n\(s.log)")
        #expect(nowMicros() - snoozedAt >= 900_000)

        // The break itself: BreakDuration in real seconds.
        let startedBreak = nowMicros()
        #expect(try s.call("StartBreak").status == 0)
        let ends = try s.number("BreakEnds")
        #expect(ends >= startedBreak + 9_500_000 && ends <= nowMicros() + 10_000_000, "BreakEnds \(ends)")
    }

    @Test func theEnvironmentAloneSetsTheScale() throws {
        let s = try ServiceHarness(environment: ["ICARE_TIME_SCALE": "60"])
        defer { s.stop() }
        #expect(try s.number("TimeScale") == 60)
        let next = try s.number("NextBreak")
        #expect(next <= nowMicros() + 20_000_000, "NextBreak is not within 20 s")
        #expect(s.log.contains("Time scale 60"))
        // Real time says nothing about a scale.
        let plain = try ServiceHarness()
        defer { plain.stop() }
        #expect(try plain.number("TimeScale") == 1)
        #expect(!plain.log.contains("Time scale"))
    }

    @Test(arguments: [
        (["--time-scale", "0"], "not '0'"), (["--time-scale", "3601"], "not '3601'"), (["--time-scale", "ten"], "not 'ten'"),
        (["--time-scale=1.5"], "not '1.5'"), (["--time-scale", "-5"], "not '-5'"), (["--time-scale"], "needs a whole number"),
    ])
    func badScalesAreRefusedInOneLine(arguments: [String], says: String) throws {
        let r = try Subprocess.run([try Products.path("icared")] + arguments, timeout: 10)
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("from 1 to 3600") && r.stderr.contains(says), "\(r)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r)")
        #expect(r.stdout.isEmpty)
    }

    @Test func aBadEnvironmentValueIsRefusedToo() throws {
        for value in ["0", "fast", "99999"] {
            let r = try Subprocess.run([try Products.path("icared"), "--log-stderr"], environment: ["ICARE_TIME_SCALE": value], timeout: 10)
            #expect(r.status == 64, "\(value): \(r)")
            #expect(r.stderr == "icared: ICARE_TIME_SCALE takes a whole number from 1 to 3600, not '\(value)'. Try 'icared --help'.\n", "\(r)")
        }
    }
}
