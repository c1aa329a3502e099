import Testing
import Foundation
import TestSupport

/// The real icared against the fake notification server in Plasma 5.27.5's
/// shape (`FakeNotificationServer` with Plasma's name and capabilities): it
/// refuses a `Notify` whose app name, summary and body equal those of the
/// last one it accepted less than a second before, with
/// `org.freedesktop.Notifications.Error.ExcessNotificationGeneration`
/// (libnotificationmanager's `server_p.cpp`; seen on a running plasmashell,
/// docs/desktop-facts.md). The countdown must never freeze on it.
@Suite(.serialized) struct PlasmaNotificationTests {
    /// GetServerInformation and GetCapabilities of plasmashell 5.27.5 (the capabilities as listed in its libnotificationmanager).
    static let plasma = "Plasma|KDE|5.27.5"
    static let plasmaCaps = "body body-hyperlinks body-markup body-images icon-static actions persistence inline-reply x-kde-urls x-kde-origin-name x-kde-display-appname inhibitions"

    static func breakService(seconds: Int) throws -> (ServiceHarness, FakeNotificationServer) {
        let (s, fake) = try NotificationTests.service(config: "BreakDuration = \(seconds)\n", capabilities: plasmaCaps, serverName: plasma)
        #expect(try s.call("StartBreak").status == 0)
        return (s, fake)
    }

    static func countdowns(_ fake: FakeNotificationServer, instance: Int) -> [NotifyRecord] {
        fake.iCareNotifies.filter { $0.isCountdown && $0.instance == instance }
    }

    /// Pairs of accepted notifications with the same words less than a second apart, on one server instance.
    static func repeats(_ fake: FakeNotificationServer) -> [(NotifyRecord, NotifyRecord)] {
        let sent = fake.iCareNotifies
        return zip(sent, sent.dropFirst()).filter { a, b in
            a.instance == b.instance && a.summary == b.summary && a.body == b.body && b.time - a.time < 1
        }
    }

    /// Plasma 6.4 and later list `sound` and play `sound-name` only for a new notification (measured on 6.7.4,
    /// PlasmaSoundsInRootTests): there "Break complete" is a new notification with the end's sound, after the
    /// countdown is closed, and icared plays nothing. Plasma 5.27 and 6.3 play nothing: it replaces the countdown.
    @Test(arguments: [("Plasma|KDE|6.7.4", " sound"), (plasma, "")])
    func breakCompleteIsNewWherePlasmaPlaysTheSound(_ server: String, _ sound: String) throws {
        let (s, fake) = try NotificationTests.service(config: "BreakDuration = 10\n", capabilities: Self.plasmaCaps + sound, serverName: server)
        defer { NotificationTests.stop(s, fake) }
        #expect(try s.call("StartBreak").status == 0)
        let complete = try NotificationTests.first(fake, timeout: 20) { $0.isICare && $0.summary == "Break complete" }
        let id = try #require(fake.iCareNotifies.first(where: \.isCountdown)?.id, "\(fake.dump)")
        #expect(complete.hint("sound-name") == .string("complete"), "\(complete.hints)")
        let closed = fake.records.firstIndex { $0.member == "CloseNotification" && $0.id == id }
        if sound.isEmpty {
            #expect(complete.replaces == id && closed == nil, "an update of the countdown: \(fake.dump)")
            #expect(try s.string("SoundPlayedBy") == "icared")
        } else {
            #expect(complete.replaces == 0 && complete.id != id, "a new notification: \(fake.dump)")
            let completed = fake.records.firstIndex { $0.isICare && $0.summary == "Break complete" }
            #expect(closed != nil && closed! < completed!, "the countdown is closed before: \(fake.dump)")
            #expect(try s.string("SoundPlayedBy") == "notification-server")
        }
    }

    @Test func theCountdownGoesOnAfterPlasmaRestartsMidBreak() throws {
        let (s, fake) = try Self.breakService(seconds: 60)
        defer { NotificationTests.stop(s, fake) }
        #expect(waitUntil(timeout: 5) { Self.countdowns(fake, instance: 1).count >= 2 }, "\(fake.dump)")
        let ends = Double(try s.number("BreakEnds")) / 1_000_000

        // plasmashell restarts. The new one gets the countdown at once; the
        // whole-second tick right after rounds to the same words when the
        // restart lands less than half a second past a whole second before
        // the end. Restart until one lands there (aimed by the last restart's latency).
        var latency = 0.3, hit = false
        for _ in 0..<6 where !hit {
            fake.kill9()
            let fraction = ends - Date().timeIntervalSince1970 - latency
            let wait = (fraction - floor(fraction)) - 0.25
            Thread.sleep(forTimeInterval: wait > 0 ? wait : wait + 1)
            let started = Date().timeIntervalSince1970
            try fake.start()
            let me = fake.instance
            let back = try NotificationTests.first(fake) { $0.isICare && $0.isCountdown && $0.instance == me }
            latency = back.time - started
            let past = (ends - back.time) - floor(ends - back.time)
            guard past > 0.05 && past < 0.45 else { continue }
            hit = true
            // It ticks on: three more seconds counted on the new server.
            #expect(waitUntil(timeout: 5) { Self.countdowns(fake, instance: me).count >= 4 },
                    "the countdown froze after the restart: \(fake.dump)\n\(s.log)")
            let secs = Self.countdowns(fake, instance: me).compactMap(\.seconds)
            #expect(secs == secs.sorted(by: >) && Set(secs).count == secs.count, "each second once: \(secs)")
        }
        #expect(hit, "no restart landed in the first half of a second: \(fake.dump)")
        // icared never sent the same words twice within a second, so Plasma refused nothing.
        #expect(fake.calls("(refused)").isEmpty, "\(fake.dump)")
        #expect(Self.repeats(fake).isEmpty, "\(Self.repeats(fake))")
    }

    @Test func aRefusedCountdownIsTriedAgainOnTheNextTick() throws {
        let (s, fake) = try Self.breakService(seconds: 30)
        defer { NotificationTests.stop(s, fake) }
        #expect(waitUntil(timeout: 5) { Self.countdowns(fake, instance: 1).count >= 2 }, "\(fake.dump)")
        // Plasma refuses the next update (as it refuses a repeat): the one after goes out all the same.
        try fake.refuseNextNotify()
        #expect(waitUntil(timeout: 5) { !fake.calls("(refused)").isEmpty }, "\(fake.dump)")
        let refusedAt = try #require(fake.calls("(refused)").first).time
        #expect(waitUntil(timeout: 5) { Self.countdowns(fake, instance: 1).filter { $0.time > refusedAt }.count >= 2 },
                "the countdown froze after a refusal: \(fake.dump)\n\(s.log)")
        #expect(try s.string("State") == "break")
        // The countdown still answers its button.
        let last = try #require(Self.countdowns(fake, instance: 1).last)
        try fake.click(last.id, "end")
        #expect(try waitUntil { try s.string("State") == "waiting" })
    }

    @Test func aStatusShownTwiceWithinASecondWaitsForTheSecond() throws {
        // The same words twice within a second: the second waits, rather than being refused and lost.
        let rig = try DndBusRig()
        let fake = try FakeNotificationServer(environment: rig.service.bus.environment, capabilities: Self.plasmaCaps, serverName: Self.plasma)
        defer { fake.stop() }
        try fake.start()
        let watcher = FakeWatcher()
        try rig.appear(watcher)
        try rig.service.start()
        #expect(try waitUntil(timeout: 5) { try StatusItemTests.registered(rig, watcher).count == 1 })
        func activate() throws {
            let r = try rig.service.busctl(["call", StatusItemTests.itemName(rig), "/StatusNotifierItem", "org.kde.StatusNotifierItem",
                                            "Activate", "ii", "0", "0"])
            #expect(r.status == 0, "\(r)")
        }
        try activate()
        let first = try NotificationTests.first(fake) { $0.isICare && $0.summary.hasPrefix("Next break at ") }
        #expect(try fake.close(first.id, reason: 2))
        try activate()
        #expect(waitUntil(timeout: 5) { fake.iCareNotifies.filter { $0.summary == first.summary }.count == 2 }, "\(fake.dump)")
        let both = fake.iCareNotifies.filter { $0.summary == first.summary }
        #expect(both.count == 2 && both[1].time - both[0].time >= 0.95, "\(fake.dump)")
        #expect(fake.calls("(refused)").isEmpty, "\(fake.dump)")
    }
}
