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
        let rig = try PresenceRig(.due(sinceSecondsAgo: 5), desktop: [.logind, .notifications])
        defer { rig.stop() }
        let (s, logind, notifications) = (rig.service, rig.logind!, rig.notifications!)
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
        let rig = try PresenceRig(.waiting(startedSecondsAgo: 60), desktop: [.gnomeScreenSaver])
        defer { rig.stop() }
        let s = rig.service
        #expect(try s.string("State") == "waiting")

        try rig.setScreenSaverActive(true)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "paused" }, "log:\n\(s.log)")
        let lockSeen = wallMicros()
        #expect(try s.string("PauseReason") == "locked")
        #expect(try holds(until: lockSeen + 10_500_000) { try s.string("State") == "paused" })

        let unlockSent = wallMicros()
        try rig.setScreenSaverActive(false)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        let unlockSeen = wallMicros()
        let records = try rig.history()
        #expect(records.map(\.outcome) == ["natural"], "\(records)")
        #expect((records.first?.seconds ?? 0) >= 10, "\(records)")
        #expect(try s.number("CompletedToday") == 1)
        let next = try s.number("NextBreak")
        #expect(next >= unlockSent + Self.interval && next <= unlockSeen + Self.interval, "NextBreak \(next)")

        // A short one gives no record.
        try rig.setScreenSaverActive(true)
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "locked" })
        try rig.setScreenSaverActive(false)
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
        let rig = try PresenceRig(.waiting(startedSecondsAgo: 60, nextAt: dueAt), desktop: [.logind])
        defer { rig.stop() }
        let (s, logind) = (rig.service, rig.logind!)
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
        let rig = try PresenceRig(.due(sinceSecondsAgo: 5), desktop: [.logind, .notifications])
        defer { rig.stop() }
        let (s, logind, notifications) = (rig.service, rig.logind!, rig.notifications!)
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
        let rig = try PresenceRig(.waiting(startedSecondsAgo: 60), desktop: [.mutter])
        defer { rig.stop() }
        let (s, mutter) = (rig.service, rig.mutter!)
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
        let rig = try PresenceRig(.due(sinceSecondsAgo: 30), desktop: [.mutter, .notifications])
        defer { rig.stop() }
        let (s, mutter, notifications) = (rig.service, rig.mutter!, rig.notifications!)
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
        let rig = try PresenceRig(.waiting(startedSecondsAgo: 60), desktop: [.logind])
        defer { rig.stop() }
        let (s, logind) = (rig.service, rig.logind!)
        // Idle since 15 s ago (the desktop sets the hints): away at once.
        try logind.update(Self.session, ["IdleHint", "b", "true", "IdleSinceHint", "t", String(wallMicros() - 15_000_000)])
        #expect(waitUntil(timeout: 10) { s.log.contains("idle for 10 s") }, "log:\n\(s.log)")
        #expect(try s.string("State") == "waiting")
        try logind.update(Self.session, ["IdleHint", "b", "false"])
        #expect(try waitUntil(timeout: 10) { try s.number("CompletedToday") == 1 }, "log:\n\(s.log)")
        #expect(try rig.history().map(\.outcome) == ["natural"])
    }

    @Test func withoutALogindSessionThatIsLoggedOnceAndSleepStillCounts() throws {
        let rig = try PresenceRig(.waiting(startedSecondsAgo: 60), desktop: [.logindWithoutSession])
        defer { rig.stop() }
        let (s, logind) = (rig.service, rig.logind!)
        try rig.waitLogged("no logind session for this process")
        try logind.prepareForSleep(true)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "paused" }, "log:\n\(s.log)")
        #expect(try s.string("PauseReason") == "locked")
        try logind.prepareForSleep(false)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        #expect(s.log.components(separatedBy: "no logind session").count == 2, "log:\n\(s.log)")
    }

    @Test func aScreenAlreadyLockedWhenIcaredStartsIsPaused() throws {
        // Both say locked before icared starts.
        let rig = try PresenceRig(.waiting(startedSecondsAgo: 60), desktop: [.logind, .gnomeScreenSaver], startService: false)
        defer { rig.stop() }
        let (s, logind) = (rig.service, rig.logind!)
        try logind.setLocked(Self.session, true)
        try rig.setScreenSaverActive(true)
        try rig.startService()
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "locked" }, "log:\n\(s.log)")
        // Both say locked; reminders come back only when both say unlocked.
        try logind.setLocked(Self.session, false)
        // (Nothing changes, so nothing marks the moment icared has seen it: watch for a second.)
        #expect(try holds(until: wallMicros() + 1_000_000) { try s.string("State") == "paused" }, "the lock screen is still up")
        try rig.setScreenSaverActive(false)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        #expect(try rig.history().isEmpty)
    }

    @Test func aLockDuringABreakDoesNotEndIt() throws {
        let rig = try PresenceRig(.waiting(startedSecondsAgo: 60), desktop: [.logind])
        defer { rig.stop() }
        let (s, logind) = (rig.service, rig.logind!)
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
        let rig = try PresenceRig(.waiting(startedSecondsAgo: 60), desktop: [.logind])
        defer { rig.stop() }
        let (s, logind) = (rig.service, rig.logind!)
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
        let rig = try PresenceRig(.waiting(startedSecondsAgo: 60), desktop: [.logind])
        defer { rig.stop() }
        let (s, logind) = (rig.service, rig.logind!)
        try logind.setLocked(Self.session, true)
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "locked" }, "log:\n\(s.log)")
        // The system bus goes away (and logind with it): a source that vanished cannot hold the schedule paused.
        rig.system?.stop()
        try rig.waitLogged("Lost the system bus")
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        #expect(s.process?.isRunning == true)
    }

    @Test func aSystemBusThatComesBackIsFollowedAndLogindCountsAgain() throws {
        let rig = try PresenceRig(.waiting(startedSecondsAgo: 60), desktop: [.logind])
        defer { rig.stop() }
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
        let rig = try PresenceRig(.waiting(startedSecondsAgo: 60, nextAt: wallMicros() + 3_000_000), desktop: [])
        defer { rig.stop() }
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
        let rig = try PresenceRig(.waiting(startedSecondsAgo: 60), desktop: [.emptySystemBus, .gnomeScreenSaver])
        defer { rig.stop() }
        let s = rig.service
        try rig.waitLogged("logind (org.freedesktop.login1) is not on the system bus")
        try rig.setScreenSaverActive(true)
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "locked" }, "log:\n\(s.log)")
        try rig.setScreenSaverActive(false)
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
