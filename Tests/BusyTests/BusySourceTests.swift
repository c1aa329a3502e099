import Testing
import DBusKit
import TestSupport
import LoopSupport
@testable import Busy

/// The idle inhibitors of GNOME and Plasma, through fakes of their exact shapes.
@Suite struct BusySourceTests {
    static let gnome = ("org.gnome.SessionManager", "/org/gnome/SessionManager", "org.gnome.SessionManager")
    static let agent = ("org.kde.Solid.PowerManagement.PolicyAgent", "/org/kde/Solid/PowerManagement/PolicyAgent",
                        "org.kde.Solid.PowerManagement.PolicyAgent")

    /// Firefox playing a video on GNOME: `Inhibit(app id, 0, reason, 8 = idle)`.
    func inhibitOnGnome(_ h: BusyHarness, _ client: Int, app: String = "org.mozilla.firefox", reason: String = "Playing video",
                        flags: UInt32 = 8) throws -> UInt32 {
        let (name, path, iface) = Self.gnome
        return try #require(try h.call(client, name, path, iface, "Inhibit", [.string(app), .uint32(0), .string(reason), .uint32(flags)])?.uint32)
    }

    @Test func gnomeInhibitAndReleaseAsFirefoxDoes() throws {
        let h = try BusyHarness()
        let session = FakeGnomeSession()
        try h.appear(session)
        try h.startMonitor()
        #expect(try waitUntil { try h.found() == ["GNOME's session manager"] })
        #expect(try h.state() == "free")
        let firefox = try h.client()
        let cookie = try inhibitOnGnome(h, firefox)
        #expect(try h.waitFor("busy video: org.mozilla.firefox: Playing video"))
        _ = try h.call(firefox, Self.gnome.0, Self.gnome.1, Self.gnome.2, "Uninhibit", [.uint32(cookie)])
        #expect(try h.waitFor("free"))
        // InhibitedActions may announce the bit before the inhibitor's reason is read: then busy comes first, the reason after.
        let seen = h.changes.value.filter { $0 != "busy video: " }
        #expect(seen == ["busy video: org.mozilla.firefox: Playing video", "free"], "\(h.changes.value)")
    }

    @Test func gnomeInhibitorsOtherThanIdleAreNotBusy() throws {
        let h = try BusyHarness()
        let session = FakeGnomeSession()
        try h.appear(session)
        try h.startMonitor()
        let app = try h.client()
        _ = try inhibitOnGnome(h, app, app: "org.gnome.Nautilus", reason: "Copying files", flags: 4 | 1)  // suspend and logout
        try h.loop.sync {}
        #expect(try !waitUntil(timeout: 0.5) { try h.state() != "free" })
    }

    @Test func theOwnerVanishingReleasesItsInhibitor() throws {
        let h = try BusyHarness()
        let session = FakeGnomeSession()
        try h.appear(session)
        try h.startMonitor()
        let player = try h.client(), browser = try h.client()
        _ = try inhibitOnGnome(h, player, app: "org.gnome.Totem", reason: "Playing a video")
        #expect(try h.waitFor("busy video: org.gnome.Totem: Playing a video"))
        _ = try inhibitOnGnome(h, browser)
        #expect(try h.waitFor("busy video: org.mozilla.firefox: Playing video"))  // the most recent speaks
        try h.closeClient(browser)
        #expect(try h.waitFor("busy video: org.gnome.Totem: Playing a video"))
        try h.closeClient(player)
        #expect(try h.waitFor("free"))
    }

    @Test func inhibitorsHeldBeforeTheMonitorStartsAreFound() throws {
        let h = try BusyHarness()
        let session = FakeGnomeSession()
        try h.appear(session)
        _ = try inhibitOnGnome(h, try h.client())
        try h.startMonitor()
        #expect(try h.waitFor("busy video: org.mozilla.firefox: Playing video"))
    }

    @Test func theSessionManagerVanishingEndsBusyAndItsReturnIsFollowed() throws {
        let h = try BusyHarness()
        let session = FakeGnomeSession()
        try h.startMonitor()
        #expect(try waitUntil { try h.found().isEmpty } && h.state() == "free")
        try h.appear(session)
        _ = try inhibitOnGnome(h, try h.client())
        #expect(try h.waitFor("busy video: org.mozilla.firefox: Playing video"))
        try h.vanish(session)
        #expect(try h.waitFor("free"))
        try h.appear(session)
        _ = try inhibitOnGnome(h, try h.client(), app: "zoom", reason: "In a meeting")
        #expect(try h.waitFor("busy video: zoom: In a meeting"))
    }

    @Test func powerDevilActiveInhibitionsWithIdle() throws {
        let h = try BusyHarness()
        let agent = FakePolicyAgent()
        try h.appear(agent)
        try h.startMonitor()
        let (name, path, iface) = Self.agent
        let app = try h.client()
        // Types 1 = sleep only (a download): not busy.
        let sleep = try #require(try h.call(app, name, path, iface, "AddInhibition", [.uint32(1), .string("org.kde.dolphin"), .string("Copying")])?.uint32)
        #expect(try !waitUntil(timeout: 0.5) { try h.state() != "free" })
        let video = try #require(try h.call(app, name, path, iface, "AddInhibition",
                                             [.uint32(5), .string("org.mozilla.firefox"), .string("Playing video")])?.uint32)
        #expect(try h.waitFor("busy video: org.mozilla.firefox: Playing video"))
        _ = try h.call(app, name, path, iface, "ReleaseInhibition", [.uint32(video)])
        #expect(try h.waitFor("free"))
        _ = try h.call(app, name, path, iface, "ReleaseInhibition", [.uint32(sleep)])
        _ = try h.call(app, name, path, iface, "AddInhibition", [.uint32(4), .string("vlc"), .string("Playing")])
        #expect(try h.waitFor("busy video: vlc: Playing"))
        try h.vanish(agent)
        #expect(try h.waitFor("free"))
    }

    @Test func olderPowerDevilSpeaksThroughHasInhibit() throws {
        let h = try BusyHarness()
        let agent = FakePolicyAgent(listsInhibitions: false), fdo = FakeFdoInhibit()
        try h.appear(agent)
        try h.appear(fdo)
        try h.startMonitor()
        #expect(try waitUntil { try h.found() == ["Plasma's PowerDevil"] })
        try h.loop.sync { fdo.set(true) }
        #expect(try h.waitFor("busy video: "))
        try h.loop.sync { fdo.set(false) }
        #expect(try h.waitFor("free"))
        try h.loop.sync { fdo.set(true) }
        #expect(try h.waitFor("busy video: "))
        try h.vanish(fdo)
        #expect(try h.waitFor("free"))
    }

    @Test func hasInhibitIsIgnoredWhereActiveInhibitionsSpeaks() throws {
        let h = try BusyHarness()
        let agent = FakePolicyAgent(), fdo = FakeFdoInhibit()
        try h.appear(agent)
        try h.appear(fdo)
        try h.startMonitor()
        #expect(try waitUntil { try h.found() == ["Plasma's PowerDevil"] })
        try h.loop.sync { fdo.set(true) }  // a sleep inhibition, say a download
        #expect(try !waitUntil(timeout: 0.5) { try h.state() != "free" })
    }

    @Test func garbageIsIgnored() throws {
        let h = try BusyHarness()
        let session = FakeGnomeSession()
        try h.appear(session)
        try h.startMonitor()
        try h.loop.sync {
            session.sendSignal("/org/gnome/SessionManager", "org.gnome.SessionManager", "InhibitorAdded", [.string("not a path")])
            session.sendSignal("/org/gnome/SessionManager", "org.freedesktop.DBus.Properties", "PropertiesChanged",
                               [.string("org.gnome.SessionManager"), .vardict([("InhibitedActions", .string("eight"))]), .array(element: "s", [])])
        }
        #expect(try !waitUntil(timeout: 0.5) { try h.state() != "free" })
        _ = try inhibitOnGnome(h, try h.client())
        #expect(try h.waitFor("busy video: org.mozilla.firefox: Playing video"))
    }

    /// A window in full screen on GNOME Shell, as iCare's extension says it: busy while it lasts,
    /// free when it ends or the extension goes; a call speaks before it.
    @Test func aFullScreenWindowOnGnomeShellAsTheExtensionSaysIt() throws {
        let h = try BusyHarness()
        let ring = FakeShellRing(fullscreen: true)
        try h.appear(ring)
        try h.startMonitor()
        #expect(try h.waitFor("busy full-screen: GNOME Shell"))
        #expect(try h.found() == ["iCare's GNOME Shell extension"])
        try h.loop.sync { ring.set(false) }
        #expect(try h.waitFor("free"))
        let session = FakeGnomeSession()
        try h.appear(session)
        try h.loop.sync { ring.set(true) }
        #expect(try h.waitFor("busy full-screen: GNOME Shell"))
        let firefox = try h.client()
        let cookie = try inhibitOnGnome(h, firefox)
        #expect(try h.waitFor("busy video: org.mozilla.firefox: Playing video"))
        let (name, path, iface) = Self.gnome
        _ = try h.call(firefox, name, path, iface, "Uninhibit", [.uint32(cookie)])
        #expect(try h.waitFor("busy full-screen: GNOME Shell"))
        try h.vanish(ring)
        #expect(try h.waitFor("free"))
    }

    /// The extension before it served the property owns only the name: nothing is known, nothing breaks.
    @Test func anExtensionWithoutThePropertyIsNoFullScreen() throws {
        let h = try BusyHarness()
        try h.appear(FakeShellRing(fullscreen: true, servesObject: false))
        try h.startMonitor()
        #expect(try waitUntil { try h.found() == ["iCare's GNOME Shell extension"] })
        #expect(try !waitUntil(timeout: 0.5) { try h.state() != "free" })
    }
}

