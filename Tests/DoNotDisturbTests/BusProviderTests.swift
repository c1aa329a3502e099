import Testing
import Foundation
import DBusKit
import TestSupport
@testable import DoNotDisturb

/// The bus-based providers, each against a fake of its exact shape.
enum FakeKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case plasma, dunst, mako, swaync07, swaync08, xfconf

    func make() -> FakeServer {
        switch self {
        case .plasma: return FakePlasma()
        case .dunst: return FakeDunst()
        case .mako: return FakeMako()
        case .swaync07: return FakeSwaync(version2: false)
        case .swaync08: return FakeSwaync(version2: true)
        case .xfconf: return FakeXfconf()
        }
    }

    /// A provider on a different bus name, to run beside this one.
    var companion: FakeKind { self == .xfconf ? .swaync08 : .xfconf }

    var testDescription: String { rawValue }
}

@Suite struct BusProviderTests {
    @Test(arguments: FakeKind.allCases)
    func alreadyInDNDAtStartIsSeenAtOnce(kind: FakeKind) throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        let fake = kind.make()
        try h.sync { fake.setDND(true) }
        try h.appear(fake)
        try h.startMonitor()
        #expect(try h.waitFor("on \(fake.source)"))
        #expect(try h.found() == [fake.source])
        #expect(h.changes.value == ["on \(fake.source)"])
    }

    @Test(arguments: FakeKind.allCases)
    func togglesOnAndOff(kind: FakeKind) throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        let fake = kind.make()
        try h.appear(fake)
        try h.startMonitor()
        #expect(try h.waitFound(fake.source))
        #expect(try h.state() == "off")
        for _ in 0..<2 {
            try h.sync { fake.setDND(true) }
            #expect(try h.waitFor("on \(fake.source)"))
            try h.sync { fake.setDND(false) }
            #expect(try h.waitFor("off"))
        }
        #expect(h.changes.value == ["on \(fake.source)", "off", "on \(fake.source)", "off"])
    }

    @Test(arguments: FakeKind.allCases)
    func vanishingWhileInDNDCountsAsOff(kind: FakeKind) throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        let fake = kind.make()
        try h.appear(fake)
        try h.startMonitor()
        try h.sync { fake.setDND(true) }
        #expect(try h.waitFor("on \(fake.source)"))
        try h.sync { fake.vanish() }
        #expect(try h.waitFor("off"))
        #expect(try h.waitFound(fake.source, false))
        // Coming back still in DND is seen again.
        try h.appear(fake)
        #expect(try h.waitFor("on \(fake.source)"))
    }

    @Test(arguments: FakeKind.allCases)
    func providerAppearingLaterIsRead(kind: FakeKind) throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        try h.startMonitor()
        let fake = kind.make()
        try h.sync { fake.setDND(true) }   // not on the bus yet: nothing is sent
        #expect(try h.state() == "off")
        try h.appear(fake)
        #expect(try h.waitFor("on \(fake.source)"))
        #expect(try h.found() == [fake.source])
    }

    @Test(arguments: FakeKind.allCases)
    func garbageSignalIsLoggedOnceAndCountsAsOff(kind: FakeKind) throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        let fake = kind.make(), other = kind.companion.make()
        try h.appear(fake)
        try h.appear(other)
        try h.startMonitor()
        try h.sync { other.setDND(true) }
        #expect(try h.waitFor("on \(other.source)"))
        try h.sync { fake.setDND(true) }
        #expect(try h.waitFor("on \(fake.source)"))

        try h.sync { fake.sendGarbage(); fake.sendGarbage() }
        let key = "\(fake.source)/signal"
        #expect(try waitUntil { try h.problems(key).occurrences == 2 })
        #expect(try h.problems(key).linesLogged == 1)
        // The broken provider counts as off; the other one still holds DND.
        #expect(try h.waitFor("on \(other.source)"))
        // The others keep working …
        try h.sync { other.setDND(false) }
        #expect(try h.waitFor("off"))
        // … and so does the provider once it speaks properly again.
        try h.sync { fake.setDND(true) }
        #expect(try h.waitFor("on \(fake.source)"))
        try h.sync { fake.sendGarbage() }
        #expect(try waitUntil { try h.problems(key).occurrences == 3 })
        #expect(try h.waitFor("off"))
        #expect(try h.problems(key).linesLogged == 1)
    }

    @Test func sourceIsTheProviderThatTurnedOnMostRecently() throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        let swaync = FakeSwaync(), xfconf = FakeXfconf(), dunst = FakeDunst()
        for fake in [swaync, xfconf, dunst] as [FakeServer] { try h.appear(fake) }
        try h.startMonitor()
        #expect(try waitUntil { try h.found() == ["xfce", "dunst", "swaync"] })
        try h.sync { swaync.setDND(true) }
        #expect(try h.waitFor("on swaync"))
        try h.sync { xfconf.setDND(true) }
        #expect(try h.waitFor("on xfce"))
        try h.sync { dunst.setDND(true) }
        #expect(try h.waitFor("on dunst"))
        try h.sync { xfconf.setDND(false) }
        try h.sync { dunst.setDND(false) }
        #expect(try h.waitFor("on swaync"))
        try h.sync { xfconf.setDND(true) }
        #expect(try h.waitFor("on xfce"))
        // Repeating "on" is no new turn-on.
        try h.sync { swaync.setDND(true) }
        try h.sync { xfconf.setDND(false) }
        #expect(try h.waitFor("on swaync"))
        try h.sync { swaync.setDND(false) }
        #expect(try h.waitFor("off"))
        #expect(h.changes.value == ["on swaync", "on xfce", "on dunst", "on swaync", "on xfce", "on swaync", "off"])
    }

    @Test func theSharedNotificationsNameIsToldApartByWhatAnswers() throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        try h.startMonitor()
        let plasma = FakePlasma(), dunst = FakeDunst(), mako = FakeMako()
        try h.sync { plasma.setDND(true); dunst.setDND(true); mako.setDND(true) }
        try h.appear(plasma)
        #expect(try h.waitFor("on kde"))
        #expect(try h.found() == ["kde"])
        try h.sync { plasma.vanish() }
        try h.appear(dunst)
        #expect(try h.waitFor("on dunst"))
        #expect(try h.found() == ["dunst"])
        try h.sync { dunst.vanish() }
        try h.appear(mako)
        #expect(try h.waitFor("on mako"))
        #expect(try h.found() == ["mako"])
    }

    @Test func aServerWithoutInhibitionsIsNotPlasma() throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        // GNOME Shell's capabilities, with an Inhibited property that must not count.
        let shell = FakePlasma(capabilities: ["actions", "body", "body-markup", "icon-static", "persistence", "sound"])
        try h.sync { shell.setDND(true) }
        try h.appear(shell)
        let swaync = FakeSwaync()
        try h.appear(swaync)
        try h.startMonitor()
        #expect(try h.waitFound("swaync"))
        // The probes of the Notifications server have had their answers once swaync's has come.
        try h.sync { swaync.setDND(true) }
        #expect(try h.waitFor("on swaync"))
        #expect(try h.found() == ["swaync"])
    }

    @Test func dunstPausedThroughPropertiesSetLikeDunstctl() throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        try h.appear(FakeDunst())
        try h.startMonitor()
        #expect(try h.waitFound("dunst"))
        let set = try Subprocess.run(["busctl", "--user", "set-property", "org.freedesktop.Notifications", notificationsPath,
                                      "org.dunstproject.cmd0", "paused", "b", "true"], environment: h.bus.environment)
        #expect(set.status == 0, "\(set)")
        #expect(try h.waitFor("on dunst"))
        let unset = try Subprocess.run(["busctl", "--user", "set-property", "org.freedesktop.Notifications", notificationsPath,
                                        "org.dunstproject.cmd0", "paused", "b", "false"], environment: h.bus.environment)
        #expect(unset.status == 0, "\(unset)")
        #expect(try h.waitFor("off"))
    }

    @Test func makoModesChangedThroughSetModes() throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        try h.appear(FakeMako())
        try h.startMonitor()
        #expect(try h.waitFound("mako"))
        let env = h.bus.environment
        let on = try Subprocess.run(["busctl", "--user", "call", "org.freedesktop.Notifications", "/fr/emersion/Mako", "fr.emersion.Mako",
                                     "SetModes", "as", "2", "default", "do-not-disturb"], environment: env)
        #expect(on.status == 0, "\(on)")
        #expect(try h.waitFor("on mako"))
        let off = try Subprocess.run(["busctl", "--user", "call", "org.freedesktop.Notifications", "/fr/emersion/Mako", "fr.emersion.Mako",
                                      "SetModes", "as", "1", "away"], environment: env)
        #expect(off.status == 0, "\(off)")
        #expect(try h.waitFor("off"))
    }

    @Test func xfconfUnsetPropertyIsOffAndRemovalTurnsOff() throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        let xfconf = FakeXfconf()
        try h.appear(xfconf)
        try h.startMonitor()
        #expect(try h.waitFound("xfce"))
        let env = h.bus.environment
        let set = try Subprocess.run(["busctl", "--user", "call", "org.xfce.Xfconf", "/org/xfce/Xfconf", "org.xfce.Xfconf",
                                      "SetProperty", "ssv", "xfce4-notifyd", "/do-not-disturb", "b", "true"], environment: env)
        #expect(set.status == 0, "\(set)")
        #expect(try h.waitFor("on xfce"))
        let reset = try Subprocess.run(["busctl", "--user", "call", "org.xfce.Xfconf", "/org/xfce/Xfconf", "org.xfce.Xfconf",
                                        "ResetProperty", "ssb", "xfce4-notifyd", "/do-not-disturb", "false"], environment: env)
        #expect(reset.status == 0, "\(reset)")
        #expect(try h.waitFor("off"))
        // Another property of the channel changes nothing.
        try h.sync { xfconf.set("xfce4-notifyd", "/theme", .string("Default")) }
        try h.sync { xfconf.set("xfce4-notifyd", "/do-not-disturb", .string("true")) }
        #expect(try waitUntil { try h.problems("xfce/value").occurrences == 1 })
        #expect(try h.state() == "off")
        #expect(try h.problems("xfce/signal").occurrences == 0)
    }

    @Test func aReplyOfTheWrongTypeIsLoggedOnceAndCountsAsOff() throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        try h.appear(FakeSwaync(replyGarbage: true))
        try h.startMonitor()
        #expect(try h.waitFound("swaync"))
        #expect(try h.problems("swaync/reply") == (1, 1))
        #expect(try h.state() == "off")
    }
}
