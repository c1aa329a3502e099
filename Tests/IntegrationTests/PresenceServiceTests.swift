import Testing
import Foundation
import TestSupport

/// Issue 8 end to end: the real `icared` with its presence sources played by
/// mocks on private buses. logind is python3-dbusmock's real `logind`
/// template on a second, system-type `dbus-daemon` (given to icared as
/// `DBUS_SYSTEM_BUS_ADDRESS`); the screensavers are dbusmock templates and
/// GNOME's idle monitor a small python3-dbus fake on the session bus, each
/// with the exact shape in `docs/desktop-facts.md`. Mocks are driven with busctl.
///
/// Wall-clock jumps are not tested here: making one for real needs root and
/// would change the machine's clock (the engine tests cover them).
@Suite struct PresenceServiceTests {
    static let tMax = String(UInt64(Int64.max))
    static let interval: UInt64 = 1_200_000_000
    /// The rig's BreakDuration (its config), in microseconds like `interval`.
    static let breakDuration: UInt64 = 10_000_000
    static let session = "/org/freedesktop/login1/session/c1"

    // MARK: lock and unlock

    @Test func logindLockPausesClosesTheReminderAndALongLockIsANaturalBreak() throws {
        // A reminder is out (restored from the state file) and shown by a notification server.
        let rig = try PresenceRig(systemBus: true, state: .due(sinceSecondsAgo: 5))
        defer { rig.stop() }
        let logind = try rig.startLogind()
        let notifications = try rig.startNotifications()
        try rig.startServiceWatchingLogind()
        let s = rig.service
        #expect(try s.string("State") == "due")
        #expect(try waitUntil(timeout: 10) { try notifications.methodCalls("Notify") > 0 }, "the due reminder was never shown; log:\n\(s.log)")
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }

        // Locked: paused as `locked`, the reminder on screen closed, nothing due.
        try logind.setLocked(Self.session, true)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "paused" }, "log:\n\(s.log)")
        let lockSeen = wallMicros()
        #expect(try s.string("PauseReason") == "locked")
        #expect(try s.number("NextBreak") == 0)
        #expect(try waitUntil(timeout: 10) { try notifications.methodCalls("CloseNotification") > 0 }, "the stale reminder stayed on screen")
        // It stays paused for the whole lock (longer than BreakDuration = 10 s).
        #expect(try holds(until: lockSeen + 10_500_000) { try s.string("State") == "paused" })

        let unlockSent = wallMicros()
        try logind.setLocked(Self.session, false)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        let unlockSeen = wallMicros()
        #expect(try s.string("PauseReason") == "")
        let records = try rig.history()
        #expect(records.count == 1, "\(records)")
        if let r = records.first {
            #expect(r.outcome == "natural")
            #expect(r.seconds >= 10 && r.seconds <= 30, "\(r)")
            #expect(r.at >= unlockSent && r.at <= unlockSeen, "\(r)")
        }
        #expect(try s.number("CompletedToday") == 1)
        #expect(try s.number("SkippedToday") == 0, "the absence answered the reminder; it is no skip")
        let next = try s.number("NextBreak")
        #expect(next >= unlockSent + Self.interval && next <= unlockSeen + Self.interval, "NextBreak \(next) is not a full interval after the unlock")

        // A lock shorter than a break: paused, then no record.
        let shortSent = wallMicros()
        try logind.setLocked(Self.session, true)
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "locked" })
        try logind.setLocked(Self.session, false)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" })
        #expect(wallMicros() - shortSent < 9_000_000, "the short lock was not short")
        #expect(try rig.history().count == 1, "\((try? rig.history()) ?? [])")
        #expect(try s.number("CompletedToday") == 1)

        #expect(monitor.signals("BreakDue").isEmpty, "no reminder goes out around a lock")
        #expect(waitUntil { Set(monitor.changedProperties).isSuperset(of: ["State", "PauseReason", "CompletedToday", "NextBreak"]) },
                "\(monitor.changedProperties)")
    }

    @Test func gnomeScreenSaverActiveChangedIsALockToo() throws {
        let rig = try PresenceRig(systemBus: false, state: .waiting(startedSecondsAgo: 60))
        defer { rig.stop() }
        let gnome = try rig.startSessionMock(name: "org.gnome.ScreenSaver", arguments: ["--template", "gnome_screensaver"])
        try rig.startService()
        let s = rig.service
        try rig.waitLogged("watching org.gnome.ScreenSaver")
        #expect(try s.string("State") == "waiting")

        try gnome.call("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "SetActive", ["b", "true"])
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "paused" }, "log:\n\(s.log)")
        let lockSeen = wallMicros()
        #expect(try s.string("PauseReason") == "locked")
        #expect(try holds(until: lockSeen + 10_500_000) { try s.string("State") == "paused" })

        let unlockSent = wallMicros()
        try gnome.call("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "SetActive", ["b", "false"])
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        let unlockSeen = wallMicros()
        let records = try rig.history()
        #expect(records.map(\.outcome) == ["natural"], "\(records)")
        #expect((records.first?.seconds ?? 0) >= 10, "\(records)")
        #expect(try s.number("CompletedToday") == 1)
        let next = try s.number("NextBreak")
        #expect(next >= unlockSent + Self.interval && next <= unlockSeen + Self.interval, "NextBreak \(next)")

        // A short one gives no record.
        try gnome.call("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "SetActive", ["b", "true"])
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "locked" })
        try gnome.call("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "SetActive", ["b", "false"])
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" })
        #expect(try rig.history().count == 1)

        // KDE's org.freedesktop.ScreenSaver (at /ScreenSaver), appearing later already active.
        let kde = try rig.startSessionMock(name: "org.freedesktop.ScreenSaver",
                                           arguments: ["--template", try DBusMockTemplates.freedesktopScreenSaver(in: rig.service.home), "-p", "{\"active\": true}"])
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "locked" }, "log:\n\(s.log)")
        try kde.call("/ScreenSaver", "org.freedesktop.ScreenSaver", "SetActive", ["b", "false"])
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        #expect(try rig.history().count == 1)
    }

    // MARK: sleep

    @Test func sleepAcrossTheDueTimePausesAndWakesToAFreshIntervalWithoutABurst() throws {
        // The next reminder is due 8 s after the state file is written; the machine sleeps through it.
        let dueAt = wallMicros() + 8_000_000
        let rig = try PresenceRig(systemBus: true, state: .waiting(startedSecondsAgo: 60, nextAt: dueAt))
        defer { rig.stop() }
        let logind = try rig.startLogind()
        try rig.startServiceWatchingLogind()
        let s = rig.service
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }
        #expect(try s.number("NextBreak") == dueAt)

        try logind.prepareForSleep(true)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "paused" }, "log:\n\(s.log)")
        let sleepSeen = wallMicros()
        try #require(sleepSeen < dueAt, "the machine must fall asleep before the reminder is due (this host is too slow)")
        #expect(try s.string("PauseReason") == "locked")
        // Asleep across the due time and for more than a break: nothing goes out.
        #expect(try holds(until: max(dueAt + 1_000_000, sleepSeen + 10_500_000)) {
            try s.string("State") == "paused" && monitor.signals("BreakDue").isEmpty
        }, "log:\n\(s.log)")

        let wakeSent = wallMicros()
        try logind.prepareForSleep(false)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        let wakeSeen = wallMicros()
        let next = try s.number("NextBreak")
        #expect(next >= wakeSent + Self.interval && next <= wakeSeen + Self.interval, "NextBreak \(next) is not a fresh interval")
        #expect(try rig.history().map(\.outcome) == ["natural"], "time asleep counts as away")
        #expect(try s.number("CompletedToday") == 1)
        #expect(try s.number("SkippedToday") == 0)
        // No burst of stale reminders after the wake.
        #expect(holds(until: wallMicros() + 1_500_000) { monitor.signals("BreakDue").isEmpty && monitor.signals("BreakSkipped").isEmpty },
                "\(monitor.messages.map { $0["member"] ?? "" })")
        #expect(s.log.contains("resumed after"), "log:\n\(s.log)")
    }

    @Test func aShortSleepWhileAReminderIsOutClosesItAndWakesToAFreshInterval() throws {
        let rig = try PresenceRig(systemBus: true, state: .due(sinceSecondsAgo: 5))
        defer { rig.stop() }
        let logind = try rig.startLogind()
        let notifications = try rig.startNotifications()
        try rig.startServiceWatchingLogind()
        let s = rig.service
        #expect(try waitUntil(timeout: 10) { try notifications.methodCalls("Notify") > 0 }, "log:\n\(s.log)")
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }

        try logind.prepareForSleep(true)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "paused" }, "log:\n\(s.log)")
        #expect(try waitUntil(timeout: 10) { try notifications.methodCalls("CloseNotification") > 0 })
        let wakeSent = wallMicros()
        try logind.prepareForSleep(false)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        let wakeSeen = wallMicros()
        let next = try s.number("NextBreak")
        #expect(next >= wakeSent + Self.interval && next <= wakeSeen + Self.interval, "NextBreak \(next)")
        #expect(try rig.history().isEmpty, "a sleep shorter than a break is no break, and the reminder is no skip")
        #expect(holds(until: wallMicros() + 1_000_000) { monitor.signals("BreakDue").isEmpty })
    }

    // MARK: idle

    @Test func mutterIdleWatchThenUserActiveWatchIsANaturalBreak() throws {
        let rig = try PresenceRig(systemBus: false, state: .waiting(startedSecondsAgo: 60))
        defer { rig.stop() }
        let mutter = try rig.startFakeMutter()
        try rig.startService()
        let s = rig.service
        #expect(try waitUntil(timeout: 10) { try mutter.calls() == ["AddIdleWatch 10000"] }, "\((try? mutter.calls()) ?? []); log:\n\(s.log)")

        // No input for longer than the break: the idle watch fires, icared waits for the return.
        try mutter.pretendIdle(seconds: 11)
        #expect(try waitUntil(timeout: 10) { try mutter.calls().contains("AddUserActiveWatch") }, "\((try? mutter.calls()) ?? []); log:\n\(s.log)")
        #expect(try s.string("State") == "waiting", "idle alone does not pause")
        #expect(try rig.history().isEmpty)

        let backSent = wallMicros()
        try mutter.input()
        #expect(try waitUntil(timeout: 10) { try s.number("CompletedToday") == 1 }, "log:\n\(s.log)")
        let backSeen = wallMicros()
        let records = try rig.history()
        #expect(records.map(\.outcome) == ["natural"], "\(records)")
        #expect((records.first?.seconds ?? 0) >= 10, "\(records)")
        let next = try s.number("NextBreak")
        #expect(next >= backSent + Self.interval && next <= backSeen + Self.interval, "NextBreak \(next)")

        // Mutter saying "idle" again at once, as if the last input were 11 s ago, cannot claim
        // rest that was already counted: no second record. The idle watch is persistent: none is added.
        try mutter.pretendIdle(seconds: 11)
        #expect(try waitUntil(timeout: 10) { try mutter.calls().filter { $0 == "AddUserActiveWatch" }.count == 2 }, "\((try? mutter.calls()) ?? [])")
        try mutter.input()
        #expect(waitUntil(timeout: 10) { s.log.components(separatedBy: "back from idle").count == 3 }, "log:\n\(s.log)")
        #expect(try s.number("CompletedToday") == 1)
        #expect(try mutter.calls().filter { $0.hasPrefix("AddIdleWatch") } == ["AddIdleWatch 10000"])

        // A new BreakDuration replaces the idle watch.
        #expect(try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "BreakDuration", "u", "20"]).status == 0)
        #expect(try waitUntil(timeout: 10) { try mutter.calls().suffix(2) == ["RemoveWatch 1", "AddIdleWatch 20000"] }, "\((try? mutter.calls()) ?? [])")
        #expect(try mutter.watchCounts() == (idle: 1, active: 0))
    }

    @Test func idleWhileAReminderIsDueAnswersIt() throws {
        let rig = try PresenceRig(systemBus: false, state: .due(sinceSecondsAgo: 30))
        defer { rig.stop() }
        let mutter = try rig.startFakeMutter()
        let notifications = try rig.startNotifications()
        try rig.startService()
        let s = rig.service
        #expect(try waitUntil(timeout: 10) { try mutter.calls() == ["AddIdleWatch 10000"] }, "\((try? mutter.calls()) ?? []); log:\n\(s.log)")
        #expect(try waitUntil(timeout: 10) { try notifications.methodCalls("Notify") > 0 }, "log:\n\(s.log)")
        #expect(try s.string("State") == "due")

        try mutter.pretendIdle(seconds: 12)
        #expect(try waitUntil(timeout: 10) { try mutter.calls().contains("AddUserActiveWatch") }, "log:\n\(s.log)")
        let backSent = wallMicros()
        try mutter.input()
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        let backSeen = wallMicros()
        #expect(try rig.history().map(\.outcome) == ["natural"])
        #expect(try s.number("SkippedToday") == 0)
        #expect(try waitUntil(timeout: 10) { try notifications.methodCalls("CloseNotification") > 0 }, "the answered reminder stayed on screen")
        let next = try s.number("NextBreak")
        #expect(next >= backSent + Self.interval && next <= backSeen + Self.interval, "NextBreak \(next)")
    }

    @Test func logindIdleHintHeldForABreakIsANaturalBreak() throws {
        let rig = try PresenceRig(systemBus: true, state: .waiting(startedSecondsAgo: 60))
        defer { rig.stop() }
        let logind = try rig.startLogind()
        try rig.startServiceWatchingLogind()
        let s = rig.service
        // Idle since 15 s ago (the desktop sets the hints): away at once.
        try logind.update(Self.session, ["IdleHint", "b", "true", "IdleSinceHint", "t", String(wallMicros() - 15_000_000)])
        #expect(waitUntil(timeout: 10) { s.log.contains("idle for 10 s") }, "log:\n\(s.log)")
        #expect(try s.string("State") == "waiting")
        try logind.update(Self.session, ["IdleHint", "b", "false"])
        #expect(try waitUntil(timeout: 10) { try s.number("CompletedToday") == 1 }, "log:\n\(s.log)")
        #expect(try rig.history().map(\.outcome) == ["natural"])
    }

    @Test func withoutALogindSessionThatIsLoggedOnceAndSleepStillCounts() throws {
        let rig = try PresenceRig(systemBus: true, state: .waiting(startedSecondsAgo: 60))
        defer { rig.stop() }
        let logind = try rig.startLogind(session: false)
        try rig.startService()
        let s = rig.service
        try rig.waitLogged("no logind session for this process")
        try logind.prepareForSleep(true)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "paused" }, "log:\n\(s.log)")
        #expect(try s.string("PauseReason") == "locked")
        try logind.prepareForSleep(false)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        #expect(s.log.components(separatedBy: "no logind session").count == 2, "log:\n\(s.log)")
    }

    @Test func aScreenAlreadyLockedWhenIcaredStartsIsPaused() throws {
        let rig = try PresenceRig(systemBus: true, state: .waiting(startedSecondsAgo: 60))
        defer { rig.stop() }
        let logind = try rig.startLogind()
        try logind.setLocked(Self.session, true)
        let gnome = try rig.startSessionMock(name: "org.gnome.ScreenSaver", arguments: ["--template", "gnome_screensaver"])
        try gnome.call("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "SetActive", ["b", "true"])
        try rig.startService()
        let s = rig.service
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "locked" }, "log:\n\(s.log)")
        // Both say locked; reminders come back only when both say unlocked.
        try logind.setLocked(Self.session, false)
        // (Nothing changes, so nothing marks the moment icared has seen it: watch for a second.)
        #expect(try holds(until: wallMicros() + 1_000_000) { try s.string("State") == "paused" }, "the lock screen is still up")
        try gnome.call("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "SetActive", ["b", "false"])
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        #expect(try rig.history().isEmpty)
    }

    @Test func aLockDuringABreakDoesNotEndIt() throws {
        let rig = try PresenceRig(systemBus: true, state: .waiting(startedSecondsAgo: 60))
        defer { rig.stop() }
        let logind = try rig.startLogind()
        try rig.startServiceWatchingLogind()
        let s = rig.service
        #expect(try s.call("StartBreak").status == 0)
        try logind.setLocked(Self.session, true)
        #expect(waitUntil(timeout: 10) { s.log.contains("screen locked") }, "log:\n\(s.log)")
        #expect(try s.string("State") == "break")
        // The countdown (10 s) runs to its end: completed, then paused as locked.
        #expect(try waitUntil(timeout: 20, interval: 0.2) { try s.number("CompletedToday") == 1 }, "log:\n\(s.log)")
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "locked" })
        let unlockSent = wallMicros()
        try logind.setLocked(Self.session, false)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        let unlockSeen = wallMicros()
        // The rest during the break is not counted twice: only the lock's time after the break's
        // end may be a natural break. Normally that is under BreakDuration, so nothing more is
        // recorded; on a loaded machine the unlock can come 10 s after it, and then the natural
        // break holds that time alone, not the 10 s of the break before it (an unlock sent before
        // then and seen after may go either way).
        let records = try rig.history()
        #expect(records.first?.outcome == "completed", "\(records)")
        guard let ended = records.first?.at else { return }
        if unlockSeen < ended + Self.breakDuration {
            #expect(records.count == 1, "the break's rest was counted again: \(records)")
        } else if unlockSent >= ended + Self.breakDuration || records.count > 1 {
            #expect(records.map(\.outcome) == ["completed", "natural"], "\(records)")
            let rested = UInt64(records.last?.seconds ?? 0) * 1_000_000
            #expect(rested <= unlockSeen - ended, "the break's rest was counted again: \(records)")
        }
    }

    // MARK: overlapping causes

    @Test func lockAndUserPauseOverlapAndRemindersComeBackOnlyWhenBothEnded() throws {
        let rig = try PresenceRig(systemBus: true, state: .waiting(startedSecondsAgo: 60))
        defer { rig.stop() }
        let logind = try rig.startLogind()
        try rig.startServiceWatchingLogind()
        let s = rig.service
        func state() throws -> String { "\(try s.string("State"))/\(try s.string("PauseReason"))" }

        // Lock, then Pause: the pause is the most recent cause.
        try logind.setLocked(Self.session, true)
        #expect(try waitUntil(timeout: 10) { try state() == "paused/locked" }, "log:\n\(s.log)")
        #expect(try s.call("Pause", "u", "0").status == 0)
        #expect(try state() == "paused/user")
        try logind.setLocked(Self.session, false)
        #expect(waitUntil(timeout: 10) { s.log.components(separatedBy: "screen unlocked").count == 2 }, "log:\n\(s.log)")
        #expect(try holds(until: wallMicros() + 500_000) { try state() == "paused/user" }, "the unlock must not end the user's pause")
        #expect(try s.number("NextBreak") == 0)
        let resumeSent = wallMicros()
        #expect(try s.call("Resume").status == 0)
        #expect(try state() == "waiting/")
        let next = try s.number("NextBreak")
        #expect(next >= resumeSent + Self.interval && next <= wallMicros() + Self.interval)

        // Pause, then lock: the lock is the most recent; Resume alone does not bring reminders back.
        #expect(try s.call("Pause", "u", "0").status == 0)
        try logind.setLocked(Self.session, true)
        #expect(try waitUntil(timeout: 10) { try state() == "paused/locked" }, "log:\n\(s.log)")
        #expect(try s.call("Resume").status == 0)
        #expect(try state() == "paused/locked")
        let unlockSent = wallMicros()
        try logind.setLocked(Self.session, false)
        #expect(try waitUntil(timeout: 10) { try state() == "waiting/" }, "log:\n\(s.log)")
        #expect(try s.number("NextBreak") >= unlockSent + Self.interval)
        #expect(try rig.history().isEmpty, "short locks and pauses are no breaks")
    }

    @Test func losingTheSystemBusWhileLockedDoesNotKeepRemindersPaused() throws {
        let rig = try PresenceRig(systemBus: true, state: .waiting(startedSecondsAgo: 60))
        defer { rig.stop() }
        let logind = try rig.startLogind()
        try rig.startServiceWatchingLogind()
        let s = rig.service
        try logind.setLocked(Self.session, true)
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "locked" }, "log:\n\(s.log)")
        // The system bus goes away (and logind with it): a source that vanished cannot hold the schedule paused.
        rig.system?.stop()
        try rig.waitLogged("Lost the system bus")
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        #expect(s.process?.isRunning == true)
    }

    @Test func aSystemBusThatComesBackIsFollowedAndLogindCountsAgain() throws {
        let rig = try PresenceRig(systemBus: true, state: .waiting(startedSecondsAgo: 60))
        defer { rig.stop() }
        _ = try rig.startLogind()
        try rig.startServiceWatchingLogind()
        let s = rig.service
        // The bus dies and a new one starts on the same socket, with logind on it again.
        try rig.system?.restart()
        try rig.waitLogged("Lost the system bus")
        try rig.waitLogged("The system bus is back")
        let logind = try rig.startLogind()
        #expect(waitUntil(timeout: 10) { s.log.components(separatedBy: "watching logind session \(Self.session)").count == 3 }, "log:\n\(s.log)")
        try logind.setLocked(Self.session, true)
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "locked" }, "log:\n\(s.log)")
        #expect(s.process?.isRunning == true)
    }

    // MARK: sources missing

    @Test func withNoSystemBusAtAllIcaredLogsItOnceAndRemindersWork() throws {
        let rig = try PresenceRig(systemBus: false, state: .waiting(startedSecondsAgo: 60, nextAt: wallMicros() + 3_000_000))
        defer { rig.stop() }
        try rig.startService()
        let s = rig.service
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }
        #expect(waitUntil(timeout: 15) { monitor.signals("BreakDue").count == 1 }, "log:\n\(s.log)")
        #expect(try s.string("State") == "due")
        #expect(try s.call("StartBreak").status == 0)
        #expect(try s.string("State") == "break")
        // Every missing source once, the system bus in exactly one line.
        try rig.waitLogged("org.gnome.Mutter.IdleMonitor is not on the session bus")
        let lines = s.log.split(separator: "\n")
        #expect(lines.filter { $0.localizedCaseInsensitiveContains("system bus") }.count == 1, "log:\n\(s.log)")
        for source in ["org.gnome.ScreenSaver is not", "org.freedesktop.ScreenSaver is not", "org.gnome.Mutter.IdleMonitor is not"] {
            #expect(lines.filter { $0.contains(source) }.count == 1, "\(source); log:\n\(s.log)")
        }
        #expect(s.process?.isRunning == true)
    }

    @Test func aSystemBusWithoutLogindIsLoggedOnceAndTheSessionSourcesStillWork() throws {
        let rig = try PresenceRig(systemBus: true, state: .waiting(startedSecondsAgo: 60))
        defer { rig.stop() }
        let gnome = try rig.startSessionMock(name: "org.gnome.ScreenSaver", arguments: ["--template", "gnome_screensaver"])
        try rig.startService()
        let s = rig.service
        try rig.waitLogged("watching org.gnome.ScreenSaver")
        try rig.waitLogged("logind (org.freedesktop.login1) is not on the system bus")
        try gnome.call("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "SetActive", ["b", "true"])
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "locked" }, "log:\n\(s.log)")
        try gnome.call("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "SetActive", ["b", "false"])
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" })
        #expect(s.log.split(separator: "\n").filter { $0.contains("logind") }.count == 1, "log:\n\(s.log)")
    }
}

// MARK: - helpers

/// Microseconds since the Unix epoch, as icared's times are.
private func wallMicros() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1_000_000) }

/// Watches `condition` until the wall clock reaches `deadline` (µs); true
/// when it held at every look. A bounded observation, not a bare sleep:
/// it fails at the first look that breaks it.
private func holds(until deadline: UInt64, _ condition: () throws -> Bool) rethrows -> Bool {
    let seconds = max(0, Double(Int64(deadline) - Int64(wallMicros())) / 1_000_000)
    let broke = try waitUntil(timeout: seconds, interval: 0.2) { !(try condition()) }
    return !broke
}

/// One record of `GetHistory`.
struct PresenceRecord: CustomStringConvertible {
    let at: UInt64
    let outcome: String
    let seconds: UInt32
    var description: String { "(\(at) \(outcome) \(seconds))" }
}

/// One real icared with a private session bus, optionally a private system
/// bus, and the python mocks that play the desktop; everything is killed
/// with SIGKILL at `stop`.
final class PresenceRig: @unchecked Sendable {
    /// What the state file says when icared starts.
    enum StartState {
        /// Counting down since that long ago; the reminder at `nextAt` (default: a full interval after the start).
        case waiting(startedSecondsAgo: UInt64, nextAt: UInt64? = nil)
        /// A reminder went out that long ago.
        case due(sinceSecondsAgo: UInt64)
    }

    static let python = "/usr/bin/python3"
    /// An address where no bus listens: "no system bus at all".
    static let noBus = "unix:path=/nonexistent/icare-test/system_bus_socket"

    let system: PrivateBus?
    let service: ServiceHarness
    private var mocks: [PresenceMock] = []

    init(systemBus: Bool, state: StartState, environment: [String: String] = [:]) throws {
        system = systemBus ? try PrivateBus(system: true) : nil
        service = try ServiceHarness(config: "BreakDuration = \(PresenceServiceTests.breakDuration / 1_000_000)\n",
                                     environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.map(Self.withoutGUID) ?? Self.noBus].merging(environment) { $1 },
                                     start: false)
        try FileManager.default.createDirectory(atPath: service.stateDirectory, withIntermediateDirectories: true)
        try Self.stateText(state).write(toFile: service.stateDirectory + "/state", atomically: true, encoding: .utf8)
    }

    /// The system bus's address as a session sees it: the socket's path
    /// without the `guid=` that names one run of the bus (libdbus refuses a
    /// bus whose guid differs, so with it a restarted bus could not be reached).
    static func withoutGUID(_ bus: PrivateBus) -> String {
        bus.address.split(separator: ",").filter { !$0.hasPrefix("guid=") }.joined(separator: ",")
    }

    static func stateText(_ state: StartState) -> String {
        let now = wallMicros()
        var lines = ["icare-engine=1", "clock=\(now)"]
        switch state {
        case .waiting(let ago, let nextAt):
            let start = now - ago * 1_000_000
            lines += ["phase=waiting", "start=\(start)", "next=\(nextAt ?? start + PresenceServiceTests.interval)"]
        case .due(let ago):
            let since = now - ago * 1_000_000
            lines += ["phase=due", "start=\(since - PresenceServiceTests.interval)", "since=\(since)", "held=0"]
        }
        lines.append("pause=none")
        return lines.joined(separator: "\n") + "\n"
    }

    func startService() throws { try service.start() }

    /// Starts icared and waits (bounded) until it watches logind's session c1.
    func startServiceWatchingLogind() throws {
        try startService()
        try waitLogged("watching logind session \(PresenceServiceTests.session)")
    }

    /// Waits (bounded) until icared's log has a line containing `text`.
    func waitLogged(_ text: String, timeout: TimeInterval = 10) throws {
        guard waitUntil(timeout: timeout, { service.log.contains(text) }) else {
            throw HarnessError("icared never logged \"\(text)\"; log:\n\(service.log)")
        }
    }

    /// `GetHistory(0, max)` parsed.
    func history() throws -> [PresenceRecord] {
        let r = try service.call("GetHistory", "tt", "0", PresenceServiceTests.tMax)
        guard r.status == 0 else { throw HarnessError("GetHistory failed: \(r)") }
        let words = r.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        guard words.count >= 2, words[0] == "a(tsu)", let n = Int(words[1]), words.count == 2 + 3 * n else {
            throw HarnessError("GetHistory answered \(r.stdout)")
        }
        return (0..<n).map { i in
            PresenceRecord(at: UInt64(words[2 + 3 * i]) ?? 0, outcome: words[3 + 3 * i].trimmingCharacters(in: CharacterSet(charactersIn: "\"")),
                           seconds: UInt32(words[4 + 3 * i]) ?? 0)
        }
    }

    /// dbusmock's real `logind` template on the system bus, with session c1
    /// (active, unlocked) and `GetSession("auto")` answering its real path,
    /// as logind does for a process of that session.
    /// Without `session`, the plain template: `GetSession("auto")` answers
    /// `…/session/auto`, which is no object, and there is no `GetSessionByPID`.
    func startLogind(session: Bool = true) throws -> PresenceLogind {
        guard let system else { throw HarnessError("this rig has no system bus") }
        guard session else {
            let mock = try PresenceMock(address: Self.withoutGUID(system), name: "org.freedesktop.login1", arguments: ["-m", "dbusmock", "--template", "logind"])
            mocks.append(mock)
            return PresenceLogind(mock: mock)
        }
        // The session and GetSession are added while the template loads,
        // before the mock answers anything: icared may call the moment the
        // name appears (it does when the system bus comes back).
        let template = service.home.appendingPathComponent("logind_session_template.py")
        try FileManager.default.createDirectory(at: service.home, withIntermediateDirectories: true)
        try """
        import dbus
        from dbusmock.templates import logind as base
        from dbusmock.templates.logind import *  # its D-Bus methods, attached by dbusmock

        def load(mock, parameters):
            base.load(mock, parameters)
            mock.AddSession('c1', 'seat0', dbus.UInt32(1000), 'user', True)
            mock.AddMethod(MAIN_IFACE, 'GetSession', 's', 'o', "ret = dbus.ObjectPath('\(PresenceServiceTests.session)')")

        """.write(to: template, atomically: true, encoding: .utf8)
        let mock = try PresenceMock(address: Self.withoutGUID(system), name: "org.freedesktop.login1",
                                    arguments: ["-m", "dbusmock", "--template", template.path])
        mocks.append(mock)
        return PresenceLogind(mock: mock)
    }

    /// A dbusmock on the session bus (`arguments` after `-m dbusmock`).
    func startSessionMock(name: String, arguments: [String]) throws -> PresenceMock {
        let mock = try PresenceMock(address: service.bus.address, name: name, arguments: ["-m", "dbusmock"] + arguments)
        mocks.append(mock)
        return mock
    }

    /// A notification server (Notify, CloseNotification with the spec's signatures) on the session bus.
    func startNotifications() throws -> PresenceMock {
        let file = service.home.appendingPathComponent("notifications_template.py")
        try FileManager.default.createDirectory(at: service.home, withIntermediateDirectories: true)
        try """
        BUS_NAME = 'org.freedesktop.Notifications'
        MAIN_OBJ = '/org/freedesktop/Notifications'
        MAIN_IFACE = 'org.freedesktop.Notifications'
        SYSTEM_BUS = False

        def load(mock, parameters):
            mock.next_id = 1
            mock.AddMethods(MAIN_IFACE, [
                ('GetCapabilities', '', 'as', 'ret = ["actions", "body", "persistence"]'),
                ('GetServerInformation', '', 'ssss', 'ret = ("icare-test", "icare", "1.0", "1.2")'),
                ('Notify', 'susssasa{sv}i', 'u', 'ret = args[1] or self.next_id\\nself.next_id += 0 if args[1] else 1'),
                ('CloseNotification', 'u', '', 'self.EmitSignal("", "NotificationClosed", "uu", [args[0], 3])'),
            ])

        """.write(to: file, atomically: true, encoding: .utf8)
        return try startSessionMock(name: "org.freedesktop.Notifications", arguments: ["--template", file.path])
    }

    /// GNOME's idle monitor (see `fakeMutterScript`) on the session bus.
    func startFakeMutter() throws -> PresenceFakeMutter {
        let file = service.home.appendingPathComponent("fake_mutter.py")
        try PresenceFakeMutter.script.write(to: file, atomically: true, encoding: .utf8)
        let mock = try PresenceMock(address: service.bus.address, name: PresenceFakeMutter.name, arguments: [file.path, service.bus.address])
        mocks.append(mock)
        return PresenceFakeMutter(mock: mock)
    }

    func stop() {
        service.kill9()
        for m in mocks { m.kill() }
        mocks = []
        service.stop()
        system?.stop()
    }
}

/// A python3 process serving a name on a private bus (dbusmock, or a script);
/// called through `busctl --address`.
final class PresenceMock: @unchecked Sendable {
    let address: String
    let name: String
    let process: Process
    private let stderrPipe = Pipe()
    private let stderrText = Box("")

    /// Runs `/usr/bin/python3 <arguments>` with both bus variables at `address`; waits for `name`.
    init(address: String, name: String, arguments: [String]) throws {
        self.address = address
        self.name = name
        guard FileManager.default.isExecutableFile(atPath: PresenceRig.python) else {
            throw HarnessError("\(PresenceRig.python) is missing; install python3-dbusmock and python3-gi (scripts/deps.sh).")
        }
        let probe = try Subprocess.run([PresenceRig.python, "-c", "import dbusmock, dbus, gi.repository.GLib"])
        guard probe.status == 0 else { throw HarnessError("python3-dbusmock, python3-dbus or python3-gi is missing: \(probe.stderr)") }
        _ = try Subprocess.which("busctl")
        process = try Subprocess.start([PresenceRig.python] + arguments,
                                       environment: ["DBUS_SYSTEM_BUS_ADDRESS": address, "DBUS_SESSION_BUS_ADDRESS": address],
                                       stderr: stderrPipe)
        // Drained all along, so a chatty mock never blocks on a full pipe.
        stderrPipe.fileHandleForReading.readabilityHandler = { [stderrText] h in
            stderrText.value += String(decoding: h.availableData, as: UTF8.self)
        }
        let up = try waitUntil(timeout: 15, interval: 0.05) {
            guard process.isRunning else { return true }
            let r = try Subprocess.run(["busctl", "--address=\(address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                        "org.freedesktop.DBus", "NameHasOwner", "s", name])
            return r.stdout == "b true\n"
        }
        guard up, process.isRunning else {
            kill()
            throw HarnessError("\(arguments.joined(separator: " ")) did not take \(name): \(stderrText.value)")
        }
    }

    /// `busctl call <name> <path> <interface> <member> <args…>`; throws when the call fails.
    @discardableResult
    func call(_ path: String, _ interface: String, _ member: String, _ args: [String] = []) throws -> String {
        let r = try Subprocess.run(["busctl", "--address=\(address)", "call", name, path, interface, member] + args)
        guard r.status == 0 else { throw HarnessError("\(member) on \(name) failed: \(r)") }
        return r.stdout
    }

    /// How many times a dbusmock method on the main object was called (`GetMethodCalls`).
    func methodCalls(_ member: String, path: String = "/org/freedesktop/Notifications") throws -> Int {
        let out = try call(path, "org.freedesktop.DBus.Mock", "GetMethodCalls", ["s", member])
        let words = out.split(separator: " ")
        guard words.count >= 2, let n = Int(words[1].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("GetMethodCalls answered \(out)")
        }
        return n
    }

    func kill() {
        stderrPipe.fileHandleForReading.readabilityHandler = nil
        Subprocess.kill9(process)
    }
}

/// Drives the dbusmock logind.
struct PresenceLogind {
    static let manager = "/org/freedesktop/login1"
    let mock: PresenceMock

    /// Sets session properties and emits PropertiesChanged with the values, as logind does.
    /// `props` are busctl words: ["LockedHint", "b", "true", …].
    func update(_ session: String, _ props: [String]) throws {
        try mock.call(session, "org.freedesktop.DBus.Mock", "UpdateProperties",
                      ["sa{sv}", "org.freedesktop.login1.Session", String(props.count / 3)] + props)
    }

    func setLocked(_ session: String, _ locked: Bool) throws {
        try update(session, ["LockedHint", "b", locked ? "true" : "false"])
    }

    /// logind's `PrepareForSleep(b)` on the manager.
    func prepareForSleep(_ value: Bool) throws {
        try mock.call(Self.manager, "org.freedesktop.DBus.Mock", "EmitSignal",
                      ["sssav", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", "1", "b", value ? "true" : "false"])
    }
}

/// A fake `org.gnome.Mutter.IdleMonitor` in python3-dbus with the shape in
/// `docs/desktop-facts.md` and the watch behaviour of mutter: idle watches are
/// persistent (they fire once each time the idle time crosses their
/// interval; input re-arms them), a user-active watch fires at the next
/// input and is removed, and `WatchFired(u)` goes only to the connection
/// that added the watch. A control interface `org.icare.Test.FakeMutter`
/// plays the person (`PretendIdle`, `Input`) and reports what was called.
struct PresenceFakeMutter {
    static let name = "org.gnome.Mutter.IdleMonitor"
    static let path = "/org/gnome/Mutter/IdleMonitor/Core"
    static let control = "org.icare.Test.FakeMutter"
    let mock: PresenceMock

    func pretendIdle(seconds: UInt32) throws { try mock.call(Self.path, Self.control, "PretendIdle", ["u", String(seconds)]) }
    func input() throws { try mock.call(Self.path, Self.control, "Input") }

    /// The calls served so far: "AddIdleWatch 10000", "AddUserActiveWatch", "RemoveWatch 1", "GetIdletime".
    func calls() throws -> [String] {
        let out = try mock.call(Self.path, Self.control, "Calls", ["--json=short"])
        guard let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any],
              let data = json["data"] as? [Any], let list = data.first as? [String] else {
            throw HarnessError("Calls answered \(out)")
        }
        return list
    }

    func watchCounts() throws -> (idle: Int, active: Int) {
        let words = try mock.call(Self.path, Self.control, "WatchCounts").split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 3, let i = Int(words[1]), let a = Int(words[2]) else { throw HarnessError("WatchCounts answered \(words)") }
        return (i, a)
    }

    static let script = #"""
    import sys
    import time

    import dbus
    import dbus.lowlevel
    import dbus.mainloop.glib
    import dbus.service
    from gi.repository import GLib

    NAME = 'org.gnome.Mutter.IdleMonitor'
    PATH = '/org/gnome/Mutter/IdleMonitor/Core'
    IFACE = 'org.gnome.Mutter.IdleMonitor'
    CONTROL = 'org.icare.Test.FakeMutter'


    def now_ms():
        return int(time.monotonic() * 1000)


    class Watch:
        def __init__(self, owner, ms):
            self.owner = owner
            self.ms = ms  # 0: a user-active watch
            self.source = None


    class IdleMonitor(dbus.service.Object):
        def __init__(self, conn):
            super().__init__(conn, PATH)
            self.conn = conn
            self.last_input = now_ms()
            self.watches = {}
            self.next_id = 1
            self.calls = []

        @dbus.service.method(IFACE, in_signature='', out_signature='t')
        def GetIdletime(self):
            self.calls.append('GetIdletime')
            return dbus.UInt64(max(0, now_ms() - self.last_input))

        @dbus.service.method(IFACE, in_signature='t', out_signature='u', sender_keyword='sender')
        def AddIdleWatch(self, interval, sender=None):
            self.calls.append('AddIdleWatch %d' % interval)
            if interval == 0:
                raise dbus.exceptions.DBusException('interval must be above 0',
                                                    name='org.freedesktop.DBus.Error.InvalidArgs')
            return self.add(sender, int(interval))

        @dbus.service.method(IFACE, in_signature='', out_signature='u', sender_keyword='sender')
        def AddUserActiveWatch(self, sender=None):
            self.calls.append('AddUserActiveWatch')
            return self.add(sender, 0)

        @dbus.service.method(IFACE, in_signature='u', out_signature='')
        def RemoveWatch(self, watch_id):
            self.calls.append('RemoveWatch %d' % watch_id)
            w = self.watches.pop(int(watch_id), None)
            if w is not None and w.source is not None:
                GLib.source_remove(w.source)

        @dbus.service.signal(IFACE, signature='u')
        def WatchFired(self, watch_id):
            """Declared for Introspect; fire() sends it to the watch's owner only."""

        @dbus.service.method(CONTROL, in_signature='u', out_signature='')
        def PretendIdle(self, seconds):
            self.last_input = now_ms() - int(seconds) * 1000
            for watch_id, w in list(self.watches.items()):
                if w.ms > 0:
                    self.arm(watch_id)

        @dbus.service.method(CONTROL, in_signature='', out_signature='')
        def Input(self):
            self.last_input = now_ms()
            for watch_id in sorted(self.watches):
                w = self.watches.get(watch_id)
                if w is None:
                    continue
                if w.ms == 0:
                    self.fire(watch_id)
                else:
                    self.arm(watch_id)

        @dbus.service.method(CONTROL, in_signature='', out_signature='as')
        def Calls(self):
            return dbus.Array(self.calls, signature='s')

        @dbus.service.method(CONTROL, in_signature='', out_signature='uu')
        def WatchCounts(self):
            idle = sum(1 for w in self.watches.values() if w.ms > 0)
            return (dbus.UInt32(idle), dbus.UInt32(len(self.watches) - idle))

        def add(self, owner, ms):
            watch_id = self.next_id
            self.next_id += 1
            self.watches[watch_id] = Watch(owner, ms)
            if ms > 0:
                self.arm(watch_id)
            return dbus.UInt32(watch_id)

        def arm(self, watch_id):
            w = self.watches[watch_id]
            if w.source is not None:
                GLib.source_remove(w.source)
            delay = max(0, self.last_input + w.ms - now_ms())
            w.source = GLib.timeout_add(delay, self.expired, watch_id)

        def expired(self, watch_id):
            w = self.watches.get(watch_id)
            if w is not None:
                w.source = None
                self.fire(watch_id)
            return False

        def fire(self, watch_id):
            w = self.watches.get(watch_id)
            if w is None:
                return
            msg = dbus.lowlevel.SignalMessage(PATH, IFACE, 'WatchFired')
            msg.append(dbus.UInt32(watch_id), signature='u')
            msg.set_destination(w.owner)
            self.conn.send_message(msg)
            if w.ms == 0:
                del self.watches[watch_id]


    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    connection = dbus.bus.BusConnection(sys.argv[1])
    monitor = IdleMonitor(connection)
    name = dbus.service.BusName(NAME, connection)
    GLib.MainLoop().run()

    """#
}
