import Testing
import ReminderCore
import SystemdKit
@testable import Sound

/// The rules of when icared plays a sound itself, without playing one: the
/// player's program is `/bin/true` here (in icared it is icared itself), so
/// a sound that would play shows as `playing`; what is heard is checked with
/// a real sound server in IntegrationTests' SoundServiceTests.
@Suite struct EventSoundsTests {
    let loop: EventLoop
    let sounds: EventSounds

    init() throws {
        loop = try EventLoop()
        sounds = EventSounds(loop: loop, log: Log(identifier: "icare-test", forceStderr: true, threshold: .warning))
        sounds.player.executable = "/bin/true"
    }

    func moment(sound: Bool = true, serverPlays: Bool = false, dnd: Bool = false, busy: Bool = false) -> SoundMoment {
        SoundMoment(sound: sound, serverPlays: serverPlays, doNotDisturb: dnd, busy: busy)
    }

    @Test func aReminderRingsAndABreaksEndCompletesNothingElseSounds() {
        #expect(EventSounds.sound(for: .breakDue(at: 1)) == "bell")
        #expect(EventSounds.sound(for: .breakCompleted(at: 1)) == "complete")
        for effect: ReminderEffect in [.breakStarted(ends: 1), .breakSkipped(at: 1), .breakSnoozed(until: 1),
                                       .record(BreakRecord(at: 1, outcome: .completed, seconds: 20))] {
            #expect(EventSounds.sound(for: effect) == nil, "\(effect)")
        }
    }

    @Test func whoPlaysTheSounds() {
        #expect(sounds.desktopAllows, "the desktop's event sounds count as on until dconf says otherwise")
        #expect(SoundWay(sound: true, desktopAllows: true, serverPlays: false) == .icared)
        #expect(SoundWay(sound: true, desktopAllows: true, serverPlays: true) == .notificationServer)
        #expect(SoundWay(sound: false, desktopAllows: true, serverPlays: false) == .none)
        #expect(SoundWay(sound: false, desktopAllows: true, serverPlays: true) == .none)
        #expect(SoundWay(sound: true, desktopAllows: false, serverPlays: true) == .none)
        #expect(SoundWay(sound: true, desktopAllows: false, serverPlays: false) == .none)
        #expect(SoundWay.notificationServer.rawValue == "notification-server")
    }

    @Test func noSoundFromIcaredWhenTheServerPlaysItSoundIsOffInDoNotDisturbOrWhileBusy() {
        for m in [moment(serverPlays: true), moment(sound: false), moment(dnd: true), moment(busy: true), moment(dnd: true, busy: true)] {
            sounds.perform(.breakCompleted(at: 1), m)
            sounds.perform(.breakDue(at: 1), m)
            #expect(!sounds.player.playing, "\(m)")
        }
        // Effects without a sound never play, whatever the moment.
        sounds.perform(.breakStarted(ends: 1), moment())
        #expect(!sounds.player.playing)
        // The moment icared is the one to play: it does, once at a time; the process's end is heard on the loop.
        var heard: [String] = []
        sounds.player.onFinished = { name, _ in heard.append(name) }
        sounds.perform(.breakCompleted(at: 1), moment())
        #expect(sounds.player.playing)
        sounds.perform(.breakDue(at: 1), moment())
        for _ in 0..<50 where sounds.player.playing { _ = try? loop.runOnce(timeout: 100_000) }
        #expect(!sounds.player.playing)
        #expect(heard == ["complete"], "a second sound while one plays is dropped")
    }

    @Test func theSoundProcessSaysItsOutcomeInItsExitStatus() {
        let outcomes: [SoundOutcome] = [.played, .noLibrary("x"), .noServer("x"), .notFound("x"), .interrupted("x"), .timedOut]
        for outcome in outcomes {
            #expect(SoundOutcome(status: outcome.status, detail: "x") == outcome)
        }
        #expect(SoundOutcome(status: 86, detail: "") == .failed("exit status 86"))
        #expect(SoundOutcome(status: 1, detail: "why") == .failed("why"))
    }
}
