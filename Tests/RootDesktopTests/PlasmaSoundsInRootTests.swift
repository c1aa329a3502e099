import Testing
import Foundation
import TestSupport

/// iCare's package (ICARE_DEB) on the real Plasma 6.3.6 (trixie) and 6.7.4 (forky) on X11, inside the
/// roots, with the session's sound as a desktop has it (PipeWire, WirePlumber, pipewire-pulse; null
/// speakers): a break started with Start on the reminder popup (a real pointer) runs out, "Break
/// complete" shows, and what the speakers really play is recorded. Plasma 6.4 and later play a
/// notification's `sound-name` themselves (`sound` in GetCapabilities), 6.3 does not: whoever plays,
/// the reminder sounds once and the end of the break once, never twice.
@Suite(.serialized) struct PlasmaSoundsInRootTests {
    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func theBreakEndsWithBreakCompleteAndEachSoundIsHeardOnce(_ release: DesktopRoot.Release) throws {
        let began = Date()
        let plasma = try RootPlasma(release, sound: true)
        defer { plasma.stop() }
        let v = "Plasma \(release.plasma)"
        try plasma.configure("BreakDuration = 10s\n")

        // Who plays: Plasma 6.7 lists `sound` and icared leaves the sounds to it; 6.3 does not, and icared plays.
        let capabilities = try plasma.capabilities(), plasmaPlays = capabilities.contains("sound")
        #expect(plasmaPlays == (release == .forky), "\(v) capabilities: \(capabilities)")
        let ears = try RootSound(plasma.session, stack: false)
        try plasma.restartDue()
        var way = ""
        #expect(try waitUntil(timeout: 10, interval: 0.2) {
            way = try plasma.string("SoundPlayedBy")
            return way == (plasmaPlays ? "notification-server" : "icared")
        }, "SoundPlayedBy \(way) on \(v)")

        // The reminder: heard once, before anything is pressed.
        let reminder = try plasma.reminderPopup()
        #expect(waitUntil(timeout: 8, interval: 0.2) { !ears.sounds.isEmpty }, "no sound with the reminder on \(v): \(ears.description)")
        Thread.sleep(forTimeInterval: 1.5)  // a second bell would have begun by now
        let bells = ears.sounds
        #expect(bells.count == 1, "the reminder sounded \(bells.count) times on \(v): \(ears.description)")
        let pressed = RootPlasma.nowMicros
        try plasma.press("Start", on: reminder)
        #expect(try plasma.state(becomes: "break"), "Start did not start the break on \(v)")
        let ends = try plasma.number("BreakEnds")
        #expect(ends >= pressed + 9_000_000 && ends <= RootPlasma.nowMicros + 10_000_000, "BreakEnds \(ends), Start at \(pressed)")
        _ = try plasma.popup { $0.texts.contains { $0.hasPrefix("Look far away · ") } }

        // The end: "Break complete" on the screen, a completed break, and the end heard once, after the break.
        #expect(try plasma.state(becomes: "waiting", timeout: 20), "the break did not end on \(v)")
        let done = try plasma.popup(timeout: 10) { $0.texts.contains("Break complete") }
        #expect(done.box.w > 50 && done.box.h > 20 && done.box.x >= 0 && done.box.y >= 0
                && done.box.x + done.box.w <= RootPlasma.width && done.box.y + done.box.h <= RootPlasma.height, "off the screen: \(done)")
        let words = try plasma.popupBodies()
        #expect(words.contains { $0.summary == "Break complete" && $0.text.hasPrefix("Well done.") }, "the popup's words on \(v): \(words)")
        try plasma.docsScreenshot("plasma67-break-complete", x: done.box.x - 6, y: done.box.y - 6, w: done.box.w + 12, h: done.box.h + 12)
        #expect(try plasma.count("CompletedToday") == 1, "no completed break on \(v)")
        let endHeard = waitUntil(timeout: 8, interval: 0.2) { ears.sounds.count >= 2 }
        Thread.sleep(forTimeInterval: 1.5)  // a second sound of the end would have begun by now
        let sounds = ears.sounds, streams = ears.streams
        if let bell = sounds.first { #expect(bell.onset < pressed, "the reminder's sound came after Start: \(bell), pressed at \(pressed)") }
        // Who played: one stream per sound, from Plasma on 6.7 and from icared (its canberra calls itself "iCare") on 6.3.
        let player = plasmaPlays ? "plasmashell" : "icared"
        #expect(streams.first?.event == "bell" && streams.allSatisfy { $0.binary == player }, "want every sound from \(player) on \(v): \(streams)")
        // The end is heard once on both: on 6.7 "Break complete" is a new notification, whose sound Plasma plays
        // (it plays none for one that replaces another).
        #expect(endHeard, "the end of the break was not heard on \(v): \(ears.description)")
        #expect(sounds.count == 2, "heard \(sounds.count) sounds on \(v), want the reminder's and the end's once each: \(ears.description)")
        #expect(streams.map(\.event) == ["bell", "complete"], "the streams on \(v): \(streams)")
        if sounds.count >= 2 {
            #expect(sounds[1].onset + 500_000 >= ends, "the end's sound began before the break's end \(ends): \(sounds[1])")
            // complete.oga is louder than bell.oga: the theme's two sounds, not one twice.
            #expect(sounds[1].peak > sounds[0].peak, "\(sounds)")
        }
        print("\(v): \(ears.description) in \(PlasmaTrayInRootTests.elapsed(began))")
    }
}
