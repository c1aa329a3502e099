import Testing
import Foundation
import TestSupport

/// Issue 19 end to end: the real `icared` on a private bus watching a real
/// headless sway (Debian 12's sway 1.7, which offers `org_kde_kwin_idle`)
/// through `WAYLAND_DISPLAY`, with `wtype` as the person at the keyboard.
/// The idle thresholds are real time (`BreakDuration` is at least 10 s), so
/// each test waits out at least one.
@Suite struct WaylandIdleServiceTests {
    static let watching = "watching the Wayland compositor's idle notifications (org_kde_kwin_idle"
    /// The `time-away` words once the compositor's idle notifications are watched.
    static let seen = "Sees when you step away or lock the screen: time away counts as a rest."

    /// A rig whose icared sees `sway` (started first: a test fails when it cannot start).
    static func rig(_ sway: HeadlessSway, state: PresenceRig.StartState, debugWire: Bool = false) throws -> PresenceRig {
        var env = ["WAYLAND_DISPLAY": sway.socket]
        // libwayland's own trace of every request and event, on icared's stderr (its log here).
        if debugWire { env["WAYLAND_DEBUG"] = "1" }
        return try PresenceRig(systemBus: false, state: state, environment: env)
    }

    @Test func noInputForLongerThanABreakThenAKeyIsOneNaturalBreak() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let rig = try Self.rig(sway, state: .waiting(startedSecondsAgo: 60))
        defer { rig.stop() }
        try rig.startService()
        let s = rig.service
        try rig.waitLogged(Self.watching)
        let watchingSeen = wallMicros()
        #expect(try rig.history().isEmpty)
        // `Capabilities` says time away is seen as soon as the compositor answered, not at the next change of
        // state; in a person's words: the protocol's name is the log's (Self.watching).
        let found = try s.capabilities(become: ["time-away": "works"], timeout: 5)
        #expect(found["time-away"]?.words == Self.seen, "\(String(describing: found["time-away"]))")

        // Nobody types: sway says idle after BreakDuration (10 s), and icared waits for the return.
        try rig.waitLogged("presence: idle for 10 s", timeout: 20)
        #expect(wallMicros() - watchingSeen >= 9_000_000, "idle came before the 10 s timeout")
        #expect(try s.string("State") == "waiting", "idle alone does not pause")
        #expect(try rig.history().isEmpty, "nothing is recorded before the return")

        let backSent = wallMicros()
        try sway.type("a")
        #expect(try waitUntil(timeout: 10) { try s.number("CompletedToday") == 1 }, "log:\n\(s.log)")
        let backSeen = wallMicros()
        let records = try rig.history()
        #expect(records.map(\.outcome) == ["natural"], "\(records)")
        if let r = records.first {
            #expect(r.seconds >= 10 && r.seconds <= 30, "\(r)")
            #expect(r.at >= backSent && r.at <= backSeen, "\(r)")
        }
        #expect(try s.number("SkippedToday") == 0)
        let next = try s.number("NextBreak")
        #expect(next >= backSent + PresenceServiceTests.interval && next <= backSeen + PresenceServiceTests.interval,
                "NextBreak \(next) is not a full interval after the return")

        // More typing right after is no second break.
        try sway.type("bc")
        #expect(try holds(for: 1_000_000) { try s.number("CompletedToday") == 1 })
        #expect(try rig.history().count == 1)
    }

    @Test func aReminderDueWhileIdleIsAnsweredByTheReturnNotSkipped() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        // At 120× the interval (1200 s) passes in 10 s: a reminder left unanswered that long is `skipped`.
        // It comes due 13 s after the start, while nobody has typed for more than the 10 s threshold.
        let dueAt = wallMicros() + 13_000_000
        let rig = try Self.rig(sway, state: .waiting(startedSecondsAgo: 5, nextAt: dueAt))
        defer { rig.stop() }
        try rig.service.start(arguments: ["--log-stderr", "--debug", "--time-scale", "120"])
        let s = rig.service
        try rig.waitLogged(Self.watching)
        try rig.waitLogged("presence: idle for 10 s", timeout: 20)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "due" }, "log:\n\(s.log)")
        // Away well past the scaled interval after the reminder: it is held, not skipped.
        #expect(try holds(for: 13_000_000) { try s.number("SkippedToday") == 0 }, "log:\n\(s.log)")
        #expect(try rig.history().isEmpty)

        try sway.type("x")
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        let records = try rig.history()
        #expect(records.map(\.outcome) == ["natural"], "\(records)")
        #expect((records.first?.seconds ?? 0) >= 20, "\(records)")
        #expect(try s.number("SkippedToday") == 0)
        #expect(try s.number("CompletedToday") == 1)
    }

    @Test func changingBreakDurationChangesTheTimeout() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let rig = try Self.rig(sway, state: .waiting(startedSecondsAgo: 60), debugWire: true)
        defer { rig.stop() }
        try rig.startService()
        let s = rig.service
        try rig.waitLogged(Self.watching)
        try rig.waitLogged("org_kde_kwin_idle_timeout@", timeout: 5)
        #expect(timeoutRequests(s.log).last == 10000, "log:\n\(s.log)")

        #expect(try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder",
                              "BreakDuration", "u", "14"]).status == 0)
        #expect(waitUntil(timeout: 5) { timeoutRequests(s.log) == [10000, 14000] }, "log:\n\(s.log)")
        #expect(s.log.contains("org_kde_kwin_idle_timeout@") && s.log.contains(".release()"), "the old timeout is released")
        let changed = wallMicros()
        // The new timeout is the one sway keeps: not idle at 10 s, idle at 14 s.
        #expect(holds(for: 11_000_000) { !s.log.contains("presence: idle for") }, "log:\n\(s.log)")
        try rig.waitLogged("presence: idle for 14 s", timeout: 10)
        #expect(wallMicros() - changed >= 13_000_000)
        try sway.type("k")
        #expect(try waitUntil(timeout: 10) { try s.number("CompletedToday") == 1 }, "log:\n\(s.log)")
    }

    @Test func killingSwayLeavesIcaredRunningAndCountsThePersonAsPresent() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let rig = try Self.rig(sway, state: .waiting(startedSecondsAgo: 60))
        defer { rig.stop() }
        try rig.startService()
        let s = rig.service
        try rig.waitLogged(Self.watching)
        try rig.waitLogged("presence: idle for 10 s", timeout: 20)

        #expect(try s.capabilities(become: ["time-away": "works"], timeout: 5)["time-away"]?.words == Self.seen)
        sway.kill9()
        try rig.waitLogged("went away (the compositor closed the connection)")
        // Nothing else sees time away here (no system bus): `Capabilities` says so at once.
        #expect(try s.capabilities(become: ["time-away": "missing"], timeout: 5)["time-away"]?.words.contains("cannot see") == true)
        // Not idle any more: the 10 s and more the compositor said were idle count, as at any return.
        try rig.waitLogged("presence: back from idle")
        #expect(try s.nameHasOwner())
        #expect(try s.string("State") == "waiting")
        #expect(try rig.history().map(\.outcome) == ["natural"])
        #expect(s.process?.isRunning == true)
        // Logged once, and the service keeps answering.
        #expect(try holds(for: 1_000_000) { try s.nameHasOwner() })
        #expect(s.log.components(separatedBy: "went away").count == 2, "log:\n\(s.log)")
        #expect(try s.call("Pause", "u", "60").status == 0)
        #expect(try s.string("State") == "paused")
    }

    @Test func mutterAppearingTakesOverFromTheWaylandWatch() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let rig = try Self.rig(sway, state: .waiting(startedSecondsAgo: 60))
        defer { rig.stop() }
        try rig.startService()
        let s = rig.service
        try rig.waitLogged(Self.watching)
        let mutter = try rig.startFakeMutter()
        try rig.waitLogged("org.gnome.Mutter.IdleMonitor is on the bus: the Wayland idle watch is not needed")
        #expect(try waitUntil(timeout: 10) { try mutter.calls() == ["AddIdleWatch 10000"] }, "\((try? mutter.calls()) ?? [])")
        // Input reaches Mutter (the fake plays it) but not sway, which would say idle
        // after 10 s: nothing goes idle, because nobody listens to sway any more.
        var lastInput = Date.distantPast
        #expect(try holds(for: 13_000_000) {
            if Date().timeIntervalSince(lastInput) > 2 { try mutter.input(); lastInput = Date() }
            return !s.log.contains("presence: idle for")
        }, "log:\n\(s.log)")
        try mutter.pretendIdle(seconds: 11)
        try rig.waitLogged("presence: idle for 10 s")
    }
}

/// The timeouts (ms) icared asked sway for, in order, from libwayland's
/// WAYLAND_DEBUG trace: `org_kde_kwin_idle@5.get_idle_timeout(new id org_kde_kwin_idle_timeout@6, wl_seat@4, 10000)`.
private func timeoutRequests(_ log: String) -> [Int] {
    log.split(separator: "\n").compactMap { line -> Int? in
        guard line.contains(" -> org_kde_kwin_idle@"), line.contains(".get_idle_timeout("),
              let args = line.split(separator: "(").last, let last = args.split(separator: ",").last else { return nil }
        return Int(last.trimmingCharacters(in: CharacterSet(charactersIn: " )")))
    }
}

private func wallMicros() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1_000_000) }

/// Whether `condition` holds at every look for `micros` (a bounded observation that fails at the first break).
private func holds(for micros: UInt64, _ condition: () throws -> Bool) rethrows -> Bool {
    !(try waitUntil(timeout: Double(micros) / 1_000_000, interval: 0.2) { !(try condition()) })
}
