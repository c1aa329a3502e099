import Testing
import Foundation
import TestSupport

/// The reminder's bell and the end of a break on the real GNOME Shell 48.7 and 50.5 (the package in the
/// Debian roots), heard: the root's own PipeWire, WirePlumber and pipewire-pulse run in the session,
/// their null speakers recorded (`RootSound`). GNOME Shell lists the `sound` capability and plays a
/// notification's `sound-name` itself, so icared passes the name and plays nothing (Sources/Sound,
/// ReminderService/Daemon+Sound.swift). Each sound once, right when what it marks happens, from the shell.
@Suite(.serialized) struct GnomeSoundsInRootTests {
    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func theReminderAndTheEndOfABreakAreEachHeardOnceFromTheShell(_ release: DesktopRoot.Release) throws {
        let began = Date()
        // Time scale 90: the 15 min interval passes in 10 s; the break keeps its 10 s.
        let rig = try GnomeClicksRig(release, variables: ["ICARE_TIME_SCALE": "90"])
        defer { rig.stop() }
        let sound = try RootSound(rig.session)
        #expect(sound.sounds.isEmpty, "heard before any reminder: \(sound.sounds)")

        // The reminder, and a click on its Start while the banner shows (unhovered, GNOME hides it after 4 s).
        let box = try rig.waitForReminder(breakSeconds: 10)
        let due = try #require(try rig.number("NextBreak"), "in due NextBreak is when the reminder went out")
        #expect(try rig.session.icareProperty("SoundPlayedBy") == "(<'notification-server'>,)")
        _ = try rig.clickButton("Start", onBanner: box)
        #expect(try rig.waitForState("break"), "Start clicked: \(rig.state())")
        let ends = try #require(try rig.number("BreakEnds"))

        // One sound with the reminder, from the shell, as it appeared: not before, and well before the break's end
        // (how long after is printed: the Shell's own player on a loaded machine took up to 4 s).
        let heard = waitUntil(timeout: 6, interval: 0.05) { !sound.sounds.isEmpty }
        let shellLog = rig.shell.shellLog.suffix(1500)
        #expect(heard, "no sound with the reminder; streams \(sound.streams); shell:\n\(shellLog)")
        let bell = try #require(sound.sounds.first)
        #expect(bell.onset >= due && bell.onset < ends - 2_000_000, "\(bell), the reminder went out at \(due), the break ends at \(ends)")
        print("GNOME Shell \(release.gnomeShell): the reminder's sound began \((Int64(bell.onset) - Int64(due)) / 1000) ms after it went out")

        // The countdown is silent; the end of the break is heard once.
        let duringBreak = sound.sounds
        _ = try waitUntil(timeout: 20, interval: 0.05) { try rig.session.icareProperty("State") != "(<'break'>,)" }
        #expect(try rig.number("CompletedToday") == 1)
        let complete = waitUntil(timeout: 4, interval: 0.1) { sound.sounds.count >= 2 }
        #expect(complete, "the end of the break was not heard: \(sound.sounds); streams \(sound.streams)")
        // Another sound, would one follow, within 2 s (each is reported 0.3 s after it ends).
        Thread.sleep(forTimeInterval: 2)
        let sounds = sound.sounds, players = sound.streams.map { "\($0.binary): \($0.media)" }
        print("GNOME Shell \(release.gnomeShell): reminder out at \(due), break ends at \(ends); heard \(sounds); played by \(players)")
        #expect(duringBreak.count == 1, "during the first seconds of the break: \(duringBreak)")
        #expect(sounds.count == 2, "once each: \(sounds)")
        if sounds.count >= 2 {
            let end = sounds[1]
            #expect(end.onset >= ends && end.onset - ends <= 1_500_000, "\(end), the break ended at \(ends)")
            // complete.oga is louder than bell.oga: the theme's two sounds, not one twice.
            #expect(end.peak > bell.peak, "\(sounds)")
        }
        #expect(players == ["gnome-shell: bell", "gnome-shell: complete"], "the streams that played")
        print("GnomeSoundsInRootTests on GNOME Shell \(release.gnomeShell): \(Int(Date().timeIntervalSince(began))) s")
    }
}
