import Testing
import Foundation
import DBusKit
import SystemdKit
import TestSupport
import LoopSupport

/// Issue 4 end to end: the real `icared` on a private bus, with the desktop's
/// do-not-disturb played by the real dconf service (written by the real
/// `gsettings`), by the real dunst (under Xvfb, driven by the real
/// `dunstctl`), and by in-process fakes with the exact D-Bus shapes in
/// `docs/desktop-facts.md` (dunst, swaync, xfconf). What icared does is read only
/// through its bus interface, its log and what it sends the notification server.
@Suite(.serialized) struct DoNotDisturbServiceTests {
    static let interval: UInt64 = 1_200_000_000

    /// Waits (bounded) until icared has logged that it found the do-not-disturb `provider`.
    static func found(_ provider: String, by s: ServiceHarness) -> Bool {
        waitUntil(timeout: 5) { s.log.contains("Do-not-disturb: \(provider) found.") }
    }

    /// Watches icared's signals and property changes from now on (stop it when done).
    static func monitor(_ s: ServiceHarness) throws -> BusMonitor {
        try BusMonitor(environment: s.environment) { _ = try s.property("State") }
    }

    // MARK: GNOME, through the real dconf service

    @Test func gnomeShowBannersThroughRealDconfPausesAndAFullIntervalFollows() throws {
        let rig = try DndDconfRig()
        defer { rig.stop() }
        let s = rig.service
        try s.start()
        #expect(try s.string("State") == "waiting")
        #expect(try s.property("DoNotDisturb") == "b false")
        #expect(try s.string("DoNotDisturbSource") == "")
        let monitor = try Self.monitor(s)
        defer { monitor.stop() }

        try rig.gsettings("set", "org.gnome.desktop.notifications", "show-banners", "false")
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "paused" }, "log:\n\(s.log)")
        #expect(try s.string("PauseReason") == "dnd")
        #expect(try s.property("DoNotDisturb") == "b true")
        #expect(try s.string("DoNotDisturbSource") == "gnome")
        #expect(try s.number("NextBreak") == 0)
        // One PropertiesChanged carries DND, its source and what it did to the schedule.
        #expect(waitUntil {
            dndChanges(monitor).contains { c in
                c["DoNotDisturb"] as? Bool == true && c["DoNotDisturbSource"] as? String == "gnome"
                    && c["State"] as? String == "paused" && c["PauseReason"] as? String == "dnd"
            }
        }, "\(dndChanges(monitor))")

        let offSent = wallMicroseconds()
        try rig.gsettings("set", "org.gnome.desktop.notifications", "show-banners", "true")
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        let offSeen = wallMicroseconds()
        #expect(try s.string("PauseReason") == "")
        #expect(try s.property("DoNotDisturb") == "b false")
        #expect(try s.string("DoNotDisturbSource") == "")
        let next = try s.number("NextBreak")
        #expect(next >= offSent + Self.interval && next <= offSeen + Self.interval, "NextBreak \(next) is not a full interval after DND ended")
        #expect(waitUntil {
            dndChanges(monitor).contains { c in
                c["DoNotDisturb"] as? Bool == false && c["DoNotDisturbSource"] as? String == ""
                    && c["State"] as? String == "waiting" && c["NextBreak"] as? UInt64 == next
            }
        }, "\(dndChanges(monitor))")
        #expect(monitor.signals("BreakDue").isEmpty)
        // Each change is logged once, naming the provider; the providers found are logged.
        #expect(occurrences(of: "Do-not-disturb is on (gnome).", in: s.log) == 1, "log:\n\(s.log)")
        #expect(occurrences(of: "Do-not-disturb is off.", in: s.log) == 1, "log:\n\(s.log)")
        #expect(s.log.contains("Do-not-disturb: gnome found."), "log:\n\(s.log)")
    }

    @Test func gnomeAlreadyInDoNotDisturbWhenIcaredStartsIsPausedAtOnce() throws {
        let rig = try DndDconfRig()
        defer { rig.stop() }
        let s = rig.service
        // Written before icared runs (this also activates dconf-service).
        try rig.gsettings("set", "org.gnome.desktop.notifications", "show-banners", "false")
        try s.start()
        #expect(try waitUntil(timeout: 2) { try s.string("State") == "paused" }, "log:\n\(s.log)")
        #expect(try s.string("PauseReason") == "dnd")
        #expect(try s.property("DoNotDisturb") == "b true")
        #expect(try s.string("DoNotDisturbSource") == "gnome")

        // Again with no dconf service on the bus: the database file alone says so.
        #expect(try s.signal(SIGTERM) == 0)
        rig.killDconfService()
        #expect(try waitUntil(timeout: 5) { try !rig.dconfServiceRuns() })
        try s.start()
        #expect(try waitUntil(timeout: 2) { try s.string("State") == "paused" }, "log:\n\(s.log)")
        #expect(try s.string("DoNotDisturbSource") == "gnome")
        // A change that activates the service again is followed.
        let offSent = wallMicroseconds()
        try rig.gsettings("set", "org.gnome.desktop.notifications", "show-banners", "true")
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        let offSeen = wallMicroseconds()
        let next = try s.number("NextBreak")
        #expect(next >= offSent + Self.interval && next <= offSeen + Self.interval, "NextBreak \(next)")
        #expect(try s.property("DoNotDisturb") == "b false")
    }

    @Test func anUnreadableDconfDatabaseIsLoggedOnceAndCountsAsOff() throws {
        let rig = try DndDconfRig()
        defer { rig.stop() }
        let s = rig.service
        try rig.gsettings("set", "org.gnome.desktop.notifications", "show-banners", "false")
        let database = rig.databasePath
        let good = try Data(contentsOf: URL(fileURLWithPath: database))
        // No service on the bus: icared follows the file through its folder.
        rig.killDconfService()
        #expect(try waitUntil(timeout: 5) { try !rig.dconfServiceRuns() })
        try s.start()
        #expect(try waitUntil(timeout: 2) { try s.string("PauseReason") == "dnd" }, "log:\n\(s.log)")

        try rig.replaceDatabase(with: good.prefix(30))              // truncated
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        #expect(try s.property("DoNotDisturb") == "b false")
        try rig.replaceDatabase(with: Data("GVariant but not really".utf8))
        try rig.replaceDatabase(with: Data(repeating: 0xff, count: 4096))
        // Still answering; still off; the problem logged once.
        #expect(try holdsTrue(until: wallMicroseconds() + 500_000) { try s.string("State") == "waiting" })
        #expect(occurrences(of: "Do-not-disturb: dconf: cannot read the dconf database", in: s.log) == 1, "log:\n\(s.log)")
        try rig.replaceDatabase(with: good)
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "dnd" }, "log:\n\(s.log)")
        #expect(s.process?.isRunning == true)
    }

    // MARK: the policies, against a fake dunst (which is also the notification server)

    @Test func startingInDoNotDisturbWithAReminderOutShowsNothing() throws {
        // icared restarts while a reminder is out and the desktop is already in DND.
        let rig = try DndBusRig(state: DndState.due(sinceSecondsAgo: 5))
        defer { rig.stop() }
        let dunst = DndFakeDunst(paused: true)
        let s = try rig.start(with: dunst)
        #expect(try waitUntil(timeout: 2) { try s.string("PauseReason") == "dnd" }, "log:\n\(s.log)")
        #expect(try holdsTrue(until: wallMicroseconds() + 1_000_000) { try s.string("State") == "paused" })
        #expect(dunst.calls.value.filter { $0.hasPrefix("Notify") }.isEmpty,
                "a reminder was sent to the notification server during DND: \(dunst.calls.value)")
    }

    @Test func aReminderThatFellDueWhileDownIsHeldWhenIcaredStartsInDoNotDisturb() throws {
        // The reminder fell due 30 s ago, while icared was not running (a login, a restart).
        let rig = try DndBusRig(config: "DndPolicy = defer\n", state: DndState.waiting(nextAt: wallMicroseconds() - 30_000_000))
        defer { rig.stop() }
        let dunst = DndFakeDunst(paused: true)
        let signals = try rig.signalMonitor()
        defer { signals.stop() }
        let s = try rig.start(with: dunst)
        #expect(try waitUntil(timeout: 2) { try s.property("DoNotDisturb") == "b true" }, "log:\n\(s.log)")
        #expect(try s.string("State") == "due")
        #expect(try holdsTrue(until: wallMicroseconds() + 1_000_000) { try s.string("State") == "due" })
        // The engine starts from the desktop as seen before the name was taken: nothing went out.
        #expect(signals.signals("BreakDue").isEmpty, "BreakDue went out during DND")
        #expect(!dunst.calls.value.contains { $0.hasPrefix("Notify") }, "shown during DND: \(dunst.calls.value)")

        try rig.dunstctl("set-paused", "false")
        #expect(waitUntil(timeout: 10) { signals.signals("BreakDue").count >= 1 }, "log:\n\(s.log)")
        #expect(waitUntil(timeout: 10) { dunst.calls.value.contains { $0.hasPrefix("Notify") } }, "the held reminder was not shown")
    }

    @Test func aReminderThatFellDueWhileDownDoesNotGoOutWhenIcaredStartsPausedByDoNotDisturb() throws {
        let rig = try DndBusRig(state: DndState.waiting(nextAt: wallMicroseconds() - 30_000_000))
        defer { rig.stop() }
        let dunst = DndFakeDunst(paused: true)
        let signals = try rig.signalMonitor()
        defer { signals.stop() }
        let s = try rig.start(with: dunst)
        #expect(try waitUntil(timeout: 2) { try s.string("PauseReason") == "dnd" }, "log:\n\(s.log)")
        #expect(try holdsTrue(until: wallMicroseconds() + 1_000_000) { try s.string("State") == "paused" })
        #expect(!dunst.calls.value.contains { $0.hasPrefix("Notify") }, "a reminder was shown during DND: \(dunst.calls.value)")
        #expect(signals.signals("BreakDue").isEmpty, "BreakDue went out during DND")
        #expect(try s.number("SkippedToday") == 0)
        #expect(try s.number("MissedToday") == 0)
    }

    @Test func pausePolicyClosesTheReminderOnScreenAndAFullIntervalFollows() throws {
        // A reminder is out (restored from the state file).
        let rig = try DndBusRig(state: DndState.due(sinceSecondsAgo: 5))
        defer { rig.stop() }
        let dunst = DndFakeDunst()
        let s = try rig.start(with: dunst)
        #expect(try s.string("State") == "due")
        #expect(waitUntil(timeout: 10) { dunst.calls.value.contains { $0.hasPrefix("Notify") } }, "the due reminder was never shown; log:\n\(s.log)")
        #expect(Self.found("dunst", by: s), "log:\n\(s.log)")
        let monitor = try Self.monitor(s)
        defer { monitor.stop() }

        // What `dunstctl set-paused true` does: Properties.Set, then PropertiesChanged with the value.
        try rig.dunstctl("set-paused", "true")
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "paused" }, "log:\n\(s.log)")
        #expect(try s.string("PauseReason") == "dnd")
        #expect(try s.property("DoNotDisturb") == "b true")
        #expect(try s.string("DoNotDisturbSource") == "dunst")
        let shownID = dunst.calls.value.first { $0.hasPrefix("Notify") }.map { String($0.split(separator: " ")[1]) } ?? "?"
        #expect(waitUntil(timeout: 10) { dunst.calls.value.contains("CloseNotification \(shownID)") },
                "the stale reminder stayed on screen: \(dunst.calls.value)")
        let callsWhilePaused = dunst.calls.value.count

        let offSent = wallMicroseconds()
        try rig.dunstctl("set-paused", "false")
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        let offSeen = wallMicroseconds()
        #expect(try s.string("DoNotDisturbSource") == "")
        let next = try s.number("NextBreak")
        #expect(next >= offSent + Self.interval && next <= offSeen + Self.interval, "NextBreak \(next)")
        #expect(monitor.signals("BreakDue").isEmpty)
        #expect(try s.number("SkippedToday") == 0, "a reminder closed by DND is no skip")
        #expect(try s.number("MissedToday") == 0)
        #expect(dunst.calls.value.count == callsWhilePaused, "nothing is shown in waiting: \(dunst.calls.value)")
    }

    @Test func deferPolicyHoldsAReminderThatFallsDueDuringDoNotDisturb() throws {
        // The next reminder falls due 4 s after the state file is written; dunst is paused from the start.
        let dueAt = wallMicroseconds() + 4_000_000
        let rig = try DndBusRig(config: "DndPolicy = defer\n", state: DndState.waiting(nextAt: dueAt))
        defer { rig.stop() }
        let dunst = DndFakeDunst(paused: true)
        let s = try rig.start(with: dunst)
        #expect(try waitUntil(timeout: 2) { try s.property("DoNotDisturb") == "b true" }, "log:\n\(s.log)")
        try #require(wallMicroseconds() < dueAt, "DND must be seen before the reminder is due (this host is too slow)")
        #expect(try s.string("State") == "waiting", "defer keeps counting")
        #expect(try s.number("NextBreak") == dueAt)
        #expect(try s.string("DoNotDisturbSource") == "dunst")
        let monitor = try Self.monitor(s)
        defer { monitor.stop() }

        #expect(try waitUntil(timeout: 10) { try s.string("State") == "due" }, "log:\n\(s.log)")
        // Held: due, but no BreakDue and nothing on screen, for as long as DND lasts.
        #expect(try holdsTrue(until: wallMicroseconds() + 1_500_000) {
            try s.string("State") == "due" && monitor.signals("BreakDue").isEmpty && !dunst.calls.value.contains { $0.hasPrefix("Notify") }
        }, "calls \(dunst.calls.value); log:\n\(s.log)")
        #expect(monitor.changedProperties.contains("State"))

        let offSent = wallMicroseconds()
        try rig.dunstctl("set-paused", "false")
        #expect(waitUntil(timeout: 10) { monitor.signals("BreakDue").count == 1 }, "log:\n\(s.log)")
        let offSeen = wallMicroseconds()
        #expect(try s.string("State") == "due")
        #expect(try s.property("DoNotDisturb") == "b false")
        if let at = breakDueArgument(monitor) {
            #expect(at >= offSent && at <= offSeen, "BreakDue \(at) is not when DND ended")
        }
        #expect(waitUntil(timeout: 10) { dunst.calls.value.contains { $0.hasPrefix("Notify") } }, "the held reminder was not shown")
        #expect(try s.number("SkippedToday") == 0)
        #expect(try s.number("MissedToday") == 0)
    }

    @Test func ignorePolicyChangesNothingAndAPolicyChangeAppliesAtOnce() throws {
        let rig = try DndBusRig(config: "DndPolicy = ignore\n")
        defer { rig.stop() }
        let dunst = DndFakeDunst()
        let s = try rig.start(with: dunst)
        #expect(Self.found("dunst", by: s), "log:\n\(s.log)")
        let next = try s.number("NextBreak")
        let monitor = try Self.monitor(s)
        defer { monitor.stop() }

        try rig.dunstctl("set-paused", "true")
        #expect(try waitUntil(timeout: 10) { try s.property("DoNotDisturb") == "b true" }, "log:\n\(s.log)")
        #expect(try s.string("DoNotDisturbSource") == "dunst")
        #expect(try s.string("State") == "waiting")
        #expect(try s.string("PauseReason") == "")
        #expect(try s.number("NextBreak") == next)
        #expect(waitUntil { Set(monitor.changedProperties) == ["DoNotDisturb", "DoNotDisturbSource"] }, "\(monitor.changedProperties)")

        // Switched to pause while DND is on: paused at once; back to ignore: a full interval.
        #expect(try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "DndPolicy", "s", "pause"]).status == 0)
        #expect(try s.string("State") == "paused")
        #expect(try s.string("PauseReason") == "dnd")
        let sent = wallMicroseconds()
        #expect(try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "DndPolicy", "s", "ignore"]).status == 0)
        let seen = wallMicroseconds()
        #expect(try s.string("State") == "waiting")
        let fresh = try s.number("NextBreak")
        #expect(fresh >= sent + Self.interval && fresh <= seen + Self.interval, "NextBreak \(fresh)")
        try rig.dunstctl("set-paused", "false")
        #expect(try waitUntil(timeout: 10) { try s.property("DoNotDisturb") == "b false" })
        #expect(try s.number("NextBreak") == fresh)
        #expect(monitor.signals("BreakDue").isEmpty)
    }

    @Test func aUserPauseAndADoNotDisturbPauseOverlap() throws {
        let rig = try DndBusRig()
        defer { rig.stop() }
        let dunst = DndFakeDunst()
        let s = try rig.start(with: dunst)
        #expect(Self.found("dunst", by: s), "log:\n\(s.log)")

        // User first, then DND; DND ends first.
        #expect(try s.call("Pause", "u", "0").status == 0)
        #expect(try s.string("PauseReason") == "user")
        try rig.dunstctl("set-paused", "true")
        #expect(try waitUntil(timeout: 10) { try s.property("DoNotDisturb") == "b true" }, "log:\n\(s.log)")
        #expect(try s.string("State") == "paused")
        #expect(try s.string("PauseReason") == "dnd", "the cause that began most recently")
        try rig.dunstctl("set-paused", "false")
        #expect(try waitUntil(timeout: 10) { try s.property("DoNotDisturb") == "b false" }, "log:\n\(s.log)")
        #expect(try s.string("State") == "paused", "still paused by the user")
        #expect(try s.string("PauseReason") == "user")
        #expect(try s.number("NextBreak") == 0)
        let resumeSent = wallMicroseconds()
        #expect(try s.call("Resume").status == 0)
        #expect(try s.string("State") == "waiting")
        let next = try s.number("NextBreak")
        #expect(next >= resumeSent + Self.interval && next <= wallMicroseconds() + Self.interval, "NextBreak \(next)")

        // DND first, then the user; the user resumes first.
        try rig.dunstctl("set-paused", "true")
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "dnd" }, "log:\n\(s.log)")
        let pause = try s.call("Pause", "u", "0")
        #expect(pause.status == 0, "a user pause during a DND pause: \(pause)")
        #expect(try s.string("PauseReason") == "user")
        #expect(try s.call("Resume").status == 0)
        #expect(try s.string("State") == "paused", "DND still holds")
        #expect(try s.string("PauseReason") == "dnd")
        try rig.dunstctl("set-paused", "false")
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
    }

    // MARK: providers coming and going

    @Test func aProviderVanishingInDoNotDisturbCountsAsOffAndOneAppearingInItIsSeen() throws {
        let rig = try DndBusRig()
        defer { rig.stop() }
        let dunst = DndFakeDunst()
        let s = try rig.start(with: dunst)
        try rig.dunstctl("set-paused", "true")
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "dnd" }, "log:\n\(s.log)")

        let goneSent = wallMicroseconds()
        try rig.sync { dunst.vanish() }
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        let goneSeen = wallMicroseconds()
        #expect(try s.property("DoNotDisturb") == "b false")
        #expect(try s.string("DoNotDisturbSource") == "")
        let next = try s.number("NextBreak")
        #expect(next >= goneSent + Self.interval && next <= goneSeen + Self.interval, "NextBreak \(next)")
        #expect(waitUntil(timeout: 5) { s.log.contains("Do-not-disturb: dunst gone.") }, "log:\n\(s.log)")

        // It comes back still paused (its state survived): seen without any change signal.
        try rig.appear(dunst)
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "dnd" }, "log:\n\(s.log)")
        #expect(try s.string("DoNotDisturbSource") == "dunst")

        // A provider that first appears after icared started, already in DND.
        let swaync = DndFakeSwaync(dnd: true)
        try rig.appear(swaync)
        #expect(try waitUntil(timeout: 10) { try s.string("DoNotDisturbSource") == "swaync" }, "log:\n\(s.log)")
        try rig.sync { dunst.vanish(); swaync.vanish() }
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        #expect(try s.property("DoNotDisturb") == "b false")
    }

    @Test func aProviderThatComesLaterIsNamedAtOnceAndGoneWhenItGoes() throws {
        let rig = try DndBusRig()
        defer { rig.stop() }
        let s = try rig.start()
        try s.capabilities(become: ["do-not-disturb": "missing"])
        // swaync starts after icared, its switch off: nothing of the schedule changes, `Capabilities` does.
        let swaync = DndFakeSwaync()
        try rig.appear(swaync)
        #expect(Self.found("swaync", by: s), "log:\n\(s.log)")
        let words = try s.capabilities(become: ["do-not-disturb": "works"], timeout: 5)["do-not-disturb"]?.words ?? ""
        #expect(words.contains("SwayNotificationCenter"), "\(words)")
        #expect(try s.string("State") == "waiting")
        try rig.sync { swaync.vanish() }
        try s.capabilities(become: ["do-not-disturb": "missing"], timeout: 5)
    }

    @Test func theSourceIsTheProviderThatTurnedOnMostRecently() throws {
        // An XFCE session (xfconf's switch acts only there) that also runs dunst and swaync.
        let rig = try DndBusRig(environment: ["XDG_CURRENT_DESKTOP": "XFCE"])
        defer { rig.stop() }
        let dunst = DndFakeDunst(), swaync = DndFakeSwaync(), xfconf = DndFakeXfconf()
        let s = try rig.start(with: dunst, swaync, xfconf)
        for name in ["dunst", "swaync", "xfce"] {
            #expect(Self.found(name, by: s), "log:\n\(s.log)")
        }
        // `Capabilities` names each one it follows, in a person's words (Xfce's own switch among them).
        let words = try s.capabilities(become: ["do-not-disturb": "works"])["do-not-disturb"]?.words ?? ""
        #expect(["dunst", "SwayNotificationCenter", "Xfce"].allSatisfy { words.contains($0) }, "\(words)")
        let monitor = try Self.monitor(s)
        defer { monitor.stop() }
        func source() throws -> String { try s.string("DoNotDisturbSource") }

        try rig.sync { swaync.setDND(true) }
        #expect(try waitUntil(timeout: 10) { try source() == "swaync" })
        #expect(try s.string("PauseReason") == "dnd")
        try rig.sync { xfconf.setDND(true) }
        #expect(try waitUntil(timeout: 10) { try source() == "xfce" })
        try rig.dunstctl("set-paused", "true")
        #expect(try waitUntil(timeout: 10) { try source() == "dunst" })
        try rig.sync { xfconf.remove() }      // PropertyRemoved: the key is gone, so off
        try rig.dunstctl("set-paused", "false")
        #expect(try waitUntil(timeout: 10) { try source() == "swaync" })
        #expect(try s.string("State") == "paused")
        #expect(try s.property("DoNotDisturb") == "b true")
        try rig.sync { swaync.setDND(false) }
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" })
        #expect(try source() == "")
        // Every change of source was announced, and DND itself only twice.
        #expect(waitUntil {
            dndChanges(monitor).compactMap { $0["DoNotDisturbSource"] as? String } == ["swaync", "xfce", "dunst", "swaync", ""]
        }, "\(dndChanges(monitor))")
        #expect(dndChanges(monitor).compactMap { $0["DoNotDisturb"] as? Bool } == [true, false])
    }

    // MARK: garbage

    @Test func aProviderSendingGarbageIsLoggedOnceAndIcaredGoesOn() throws {
        let rig = try DndBusRig()
        defer { rig.stop() }
        let swaync = DndFakeSwaync(dnd: true), dunst = DndFakeDunst()
        let s = try rig.start(with: swaync, dunst)
        #expect(try waitUntil(timeout: 10) { try s.string("DoNotDisturbSource") == "swaync" }, "log:\n\(s.log)")

        // SubscribeV2 with a string where the dnd boolean goes, three times.
        try rig.sync { for _ in 0..<3 { swaync.sendGarbage() } }
        // Treated as not in DND; icared still answers.
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        #expect(try s.property("DoNotDisturb") == "b false")
        #expect(rig.service.process?.isRunning == true)
        // The others are not blocked.
        try rig.dunstctl("set-paused", "true")
        #expect(try waitUntil(timeout: 10) { try s.string("DoNotDisturbSource") == "dunst" }, "log:\n\(s.log)")
        try rig.sync { dunst.sendGarbage(); dunst.sendGarbage() }
        #expect(try waitUntil(timeout: 10) { try s.property("DoNotDisturb") == "b false" }, "log:\n\(s.log)")
        // One line per provider and kind of problem.
        #expect(occurrences(of: "Do-not-disturb: swaync: SubscribeV2 came with", in: s.log) == 1, "log:\n\(s.log)")
        #expect(occurrences(of: "Do-not-disturb: dunst: PropertiesChanged came with", in: s.log) == 1, "log:\n\(s.log)")
        // Speaking properly again works again.
        try rig.sync { swaync.setDND(true) }
        #expect(try waitUntil(timeout: 10) { try s.string("DoNotDisturbSource") == "swaync" }, "log:\n\(s.log)")
        #expect(try s.string("State") == "paused")
        try rig.sync { swaync.sendGarbage() }
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        #expect(occurrences(of: "Do-not-disturb: swaync: SubscribeV2 came with", in: s.log) == 1, "log:\n\(s.log)")
        #expect(try s.call("Pause", "u", "60").status == 0, "icared still serves")
    }

    // MARK: the real dunst

    @Test func realDunstPausedWithDunstctl() throws {
        let rig = try DndBusRig()
        defer { rig.stop() }
        let dunst = try rig.startRealDunst()
        let s = try rig.start()
        #expect(Self.found("dunst", by: s), "log:\n\(s.log)")
        #expect(try s.string("State") == "waiting")

        try rig.dunstctl("set-paused", "true")
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "paused" }, "log:\n\(s.log)")
        #expect(try s.string("PauseReason") == "dnd")
        #expect(try s.string("DoNotDisturbSource") == "dunst")
        try rig.dunstctl("set-paused", "false")
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")

        // Paused, then dunst quits: DND ends with it.
        try rig.dunstctl("set-paused", "true")
        #expect(try waitUntil(timeout: 10) { try s.string("PauseReason") == "dnd" }, "log:\n\(s.log)")
        Subprocess.kill9(dunst)
        #expect(try waitUntil(timeout: 10) { try s.string("State") == "waiting" }, "log:\n\(s.log)")
        #expect(try s.property("DoNotDisturb") == "b false")
    }
}

// MARK: helpers

private func wallMicroseconds() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1_000_000) }

/// Whether `condition` holds at every look until `deadline` (µs, wall clock): a bounded watch.
private func holdsTrue(until deadline: UInt64, _ condition: () throws -> Bool) rethrows -> Bool {
    repeat {
        if try !condition() { return false }
        Thread.sleep(forTimeInterval: 0.05)
    } while wallMicroseconds() < deadline
    return try condition()
}

private func occurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}

/// The changed properties of each PropertiesChanged from icared, in order, as name → value.
private func dndChanges(_ monitor: BusMonitor) -> [[String: Any]] {
    monitor.signals("PropertiesChanged").compactMap { message -> [String: Any]? in
        guard (message["path"] as? String) == "/org/icare/Reminder", let payload = message["payload"] as? [String: Any],
              let data = payload["data"] as? [Any], data.count >= 2, let changed = data[1] as? [String: Any] else { return nil }
        var values: [String: Any] = [:]
        for (name, typed) in changed {
            guard let typed = typed as? [String: Any], let value = typed["data"] else { continue }
            // busctl writes t and u as JSON numbers.
            if let n = value as? NSNumber, (typed["type"] as? String) == "t" || (typed["type"] as? String) == "u" {
                values[name] = n.uint64Value
            } else {
                values[name] = value
            }
        }
        return values
    }
}

/// The argument of the first BreakDue seen.
private func breakDueArgument(_ monitor: BusMonitor) -> UInt64? {
    guard let payload = monitor.signals("BreakDue").first?["payload"] as? [String: Any],
          let data = payload["data"] as? [Any], let n = data.first as? NSNumber else { return nil }
    return n.uint64Value
}
