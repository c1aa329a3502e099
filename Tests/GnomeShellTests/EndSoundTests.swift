import Testing
import Foundation
import TestSupport

extension GnomeShellTests {
    /// GNOME Shell plays a notification's `sound-name` itself (its
    /// capabilities list `sound`), so icared passes the name and plays
    /// nothing. Heard for real: PipeWire and its Pulse server run headless in
    /// the session's runtime folder, where the shell's libcanberra finds
    /// them, and their null speakers are recorded. The reminder rings once
    /// and the end of the break sounds once, each right after its signal.
    @Test func theReminderAndTheEndOfABreakAreHeardThroughGnomeShellAndIcaredPlaysNothing() throws {
        let desktop = try GnomeDesktop.shared()
        let pipeWire = try HeadlessPipeWire(environment: desktop.shell.environment)
        defer { pipeWire.stop() }
        try pipeWire.startPulse()
        let recorder = try SoundRecorder(pipeWire: pipeWire)
        defer { recorder.stop() }
        defer { desktop.stopIcared() }
        // Time scale 90: the 15 min interval passes in 10 s; the break lasts its 10 s.
        try desktop.startIcared(config: "Interval = 15m\nBreakDuration = 10s\n")
        let s = desktop.service
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }
        #expect(try waitUntil { try s.string("SoundPlayedBy") == "notification-server" }, "log:\n\(s.log)")
        func signalTime(_ member: String) -> UInt64? {
            guard let payload = monitor.signals(member).first?["payload"] as? [String: Any],
                  let data = payload["data"] as? [Any] else { return nil }
            return (data.first as? NSNumber)?.uint64Value
        }

        try desktop.waitForState("due", timeout: 20)
        #expect(waitUntil(timeout: 5) { !recorder.sounds.isEmpty }, "no bell from GNOME Shell; shell:\n\(desktop.shell.shellLog.suffix(2000))")
        let due = try #require(signalTime("BreakDue"))
        let bell = try #require(recorder.sounds.first)
        #expect(bell.onset >= due && bell.onset - due <= 1_500_000, "bell \(bell), BreakDue at \(due)")

        #expect(try s.call("StartBreak").status == 0)
        try desktop.waitForState("waiting", timeout: 25)
        let completed = try #require(signalTime("BreakCompleted"), "log:\n\(s.log)")
        #expect(waitUntil(timeout: 5) { recorder.sounds.count >= 2 }, "the end of the break was not heard; log:\n\(s.log)")
        Thread.sleep(forTimeInterval: 0.5)
        let sounds = recorder.sounds
        #expect(sounds.count == 2, "once each: \(sounds)")
        if sounds.count >= 2 {
            #expect(sounds[1].onset >= completed && sounds[1].onset - completed <= 1_500_000,
                    "heard \(Int64(sounds[1].onset) - Int64(completed)) µs after BreakCompleted")
            // complete.oga is louder than bell.oga: the theme's two sounds, not one twice.
            #expect(sounds[1].peak > bell.peak, "\(sounds)")
        }
        #expect(!s.log.contains("Sound: played"), "icared played a sound itself; log:\n\(s.log)")
    }
}
