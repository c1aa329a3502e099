import Testing
import Foundation
import TestSupport
@testable import Presence

/// logind from python3-dbusmock's real `logind` template on a private system-type bus.
@Suite struct LogindTests {
    @Test func lockedHintAndActiveFollowPropertiesChanged() throws {
        let rig = try Rig(systemBus: true)
        defer { rig.stop() }
        let logind = try LogindMock(systemBus: rig.system!)
        let session = try logind.addSession("c1")
        try logind.makeAutoResolve(to: session)
        rig.start()
        #expect(rig.waitFound("logind session \(session)"), "\(rig.found) \(rig.logged)")
        #expect(rig.logged.contains { $0.contains("found through GetSession(\"auto\")") })

        try logind.update(session, 1, ["LockedHint", "b", "true"])
        #expect(rig.expectEvents(endingWith: ["locked true"]), "\(rig.events.value)")
        try logind.update(session, 1, ["LockedHint", "b", "false"])
        #expect(rig.expectEvents(endingWith: ["locked true", "locked false"]), "\(rig.events.value)")

        // Another session takes the seat: counts as locked.
        try logind.update(session, 1, ["Active", "b", "false"])
        #expect(rig.expectEvents(endingWith: ["locked false", "locked true"]), "\(rig.events.value)")
        try logind.update(session, 1, ["Active", "b", "true"])
        #expect(rig.expectEvents(endingWith: ["locked true", "locked false"]), "\(rig.events.value)")

        // Only invalidated (no value in the signal): the monitor re-reads it.
        try logind.mock.mock(session, "AddMethod", ["sssss", "org.icare.Test", "SilentLock", "b", "",
                                                    "self.props['org.freedesktop.login1.Session']['LockedHint'] = args[0]"])
        try logind.mock.call(session, "org.icare.Test", "SilentLock", ["b", "true"])
        try logind.mock.mock(session, "EmitSignal", ["sssav", "org.freedesktop.DBus.Properties", "PropertiesChanged", "sa{sv}as", "3",
                                                     "s", "org.freedesktop.login1.Session", "a{sv}", "0", "as", "1", "LockedHint"])
        #expect(rig.expectEvents(endingWith: ["locked false", "locked true"]), "\(rig.events.value)")
        #expect(rig.events.value == ["locked true", "locked false", "locked true", "locked false", "locked true"])
    }

    @Test func sessionPathFallsBackToGetSessionByPID() throws {
        let rig = try Rig(systemBus: true)
        defer { rig.stop() }
        let logind = try LogindMock(systemBus: rig.system!)
        // The template answers GetSession("auto") with …/session/auto, which is no object.
        let session = try logind.addSession("c7")
        try logind.addGetSessionByPID(answering: session)
        rig.start()
        #expect(rig.waitFound("logind session \(session)"), "\(rig.found) \(rig.logged)")
        #expect(rig.logged.contains { $0.contains("found through GetSessionByPID") })
        let calls = try logind.mock.mock(LogindMock.manager, "GetMethodCalls", ["s", "GetSessionByPID"])
        #expect(calls.contains("u \(getpid())"), "\(calls)")
        try logind.update(session, 1, ["LockedHint", "b", "true"])
        #expect(rig.expectEvents(endingWith: ["locked true"]), "\(rig.events.value)")
    }

    @Test func noSessionIsLoggedOnceAndSleepStillWorks() throws {
        let rig = try Rig(systemBus: true)
        defer { rig.stop() }
        let logind = try LogindMock(systemBus: rig.system!)
        rig.start()
        #expect(rig.waitLogged("no logind session"), "\(rig.logged)")
        #expect(rig.found.contains("logind"))
        #expect(!rig.found.contains { $0.hasPrefix("logind session") })

        try logind.prepareForSleep(true)
        #expect(rig.expectEvents(endingWith: ["sleep true"]), "\(rig.events.value)")
        #expect(rig.onMonitor { $0.isAsleep })
        Thread.sleep(forTimeInterval: 0.05)
        try logind.prepareForSleep(false)
        #expect(rig.expectEvents(endingWith: ["sleep true", "sleep false"]), "\(rig.events.value)")
        let slept = rig.onMonitor { $0.lastSleepDuration } ?? 0
        #expect(slept >= 50_000, "\(slept) µs")
        // A repeated signal is no change.
        try logind.prepareForSleep(false)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(rig.events.value == ["sleep true", "sleep false"])
        #expect(rig.count(logged: "no logind session") == 1)
    }

    @Test func idleHintCountsOnceIdleSinceHintPlusThresholdIsReached() throws {
        let rig = try Rig(systemBus: true)
        defer { rig.stop() }
        let logind = try LogindMock(systemBus: rig.system!)
        let session = try logind.addSession("c1")
        try logind.makeAutoResolve(to: session)
        rig.start(threshold: 2)
        #expect(rig.waitFound("logind session \(session)"))

        // Idle since 10 s ago, threshold 2 s: idle at once.
        let now = UInt64(Date().timeIntervalSince1970 * 1_000_000)
        try logind.update(session, 2, ["IdleHint", "b", "true", "IdleSinceHint", "t", String(now - 10_000_000)])
        #expect(rig.expectEvents(endingWith: ["idle true"]), "\(rig.events.value)")
        try logind.update(session, 1, ["IdleHint", "b", "false"])
        #expect(rig.expectEvents(endingWith: ["idle true", "idle false"]), "\(rig.events.value)")

        // Idle since now: one deadline 2 s later, not before.
        let start = Date()
        let since = UInt64(start.timeIntervalSince1970 * 1_000_000)
        try logind.update(session, 2, ["IdleHint", "b", "true", "IdleSinceHint", "t", String(since)])
        #expect(rig.expectEvents(endingWith: ["idle false", "idle true"], timeout: 10), "\(rig.events.value)")
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= 1.7, "idle after \(waited) s")

        // A longer threshold un-reaches it and re-arms the deadline.
        rig.onMonitor { $0.setIdleThreshold(seconds: 3600) }
        #expect(rig.expectEvents(endingWith: ["idle true", "idle false"]), "\(rig.events.value)")
    }

    @Test func logindAppearingLaterIsFoundAndReResolvedAfterARestart() throws {
        let rig = try Rig(systemBus: true)
        defer { rig.stop() }
        rig.start()
        #expect(rig.waitLogged("logind (org.freedesktop.login1) is not on the system bus"), "\(rig.logged)")
        #expect(rig.found.isEmpty, "\(rig.found)")

        var logind = try LogindMock(systemBus: rig.system!, session: "c1", autoResolves: true)
        #expect(rig.waitFound("logind session /org/freedesktop/login1/session/c1"), "\(rig.found) \(rig.logged)")
        try logind.update("/org/freedesktop/login1/session/c1", 1, ["LockedHint", "b", "true"])
        #expect(rig.expectEvents(endingWith: ["locked true"]), "\(rig.events.value)")

        // logind goes away: a vanished source cannot hold the screen locked.
        logind.kill()
        #expect(rig.expectEvents(endingWith: ["locked true", "locked false"]), "\(rig.events.value)")
        #expect(waitUntil { !rig.found.contains("logind") }, "\(rig.found)")

        // It comes back (it restarts on upgrades) with another session: resolved again.
        logind = try LogindMock(systemBus: rig.system!, session: "c2", autoResolves: true)
        #expect(rig.waitFound("logind session /org/freedesktop/login1/session/c2"), "\(rig.found) \(rig.logged)")
        try logind.prepareForSleep(true)
        #expect(rig.expectEvents(endingWith: ["sleep true"]), "\(rig.events.value)")
        try logind.prepareForSleep(false)
        #expect(rig.expectEvents(endingWith: ["sleep true", "sleep false"]), "\(rig.events.value)")
        #expect(rig.count(logged: "is not on the system bus") == 1, "\(rig.logged)")
    }

    @Test func sessionPathsAreEscapedLikeLogindAndAliasesAreRecognised() {
        #expect(SessionPath.forID("2") == "/org/freedesktop/login1/session/_32")
        #expect(SessionPath.forID("c1") == "/org/freedesktop/login1/session/c1")
        #expect(SessionPath.forID("a-b") == "/org/freedesktop/login1/session/a_2db")
        #expect(SessionPath.forID("") == "/org/freedesktop/login1/session/_")
        #expect(SessionPath.isAlias("/org/freedesktop/login1/session/auto"))
        #expect(SessionPath.isAlias("/org/freedesktop/login1/session/self"))
        #expect(!SessionPath.isAlias("/org/freedesktop/login1/session/c1"))
    }

    @Test func anAliasPathIsReplacedByTheRealOneFromTheSessionId() throws {
        let rig = try Rig(systemBus: true)
        defer { rig.stop() }
        // A logind that answers GetSession("auto") with the alias object, which
        // does answer calls (as real logind's does) and names the session's Id.
        let logind = try LogindMock(systemBus: rig.system!, session: "c3")
        try logind.mock.mock(LogindMock.manager, "AddObject", ["ssa{sv}a(ssss)", "/org/freedesktop/login1/session/auto",
                                                              "org.freedesktop.login1.Session", "2", "Id", "s", "c3", "LockedHint", "b", "false", "0"])
        rig.start()
        #expect(rig.waitFound("logind session /org/freedesktop/login1/session/c3"), "\(rig.found) \(rig.logged)")
        try logind.update("/org/freedesktop/login1/session/c3", 1, ["LockedHint", "b", "true"])
        #expect(rig.expectEvents(endingWith: ["locked true"]), "\(rig.events.value)")
    }
}
