import Testing
import Foundation
import DBusKit
import TestSupport
import DesktopWatch
@testable import DoNotDisturb

/// Issue 29, item 3: a desktop's switch acts only where that desktop is in
/// use (`SessionDesktops`): named by `XDG_CURRENT_DESKTOP` (or nothing named)
/// and its shell on the bus. The dconf database here holds GNOME's and
/// Cinnamon's do-not-disturb, as a GNOME or Cinnamon session of the same
/// person leaves them; shells are programs owning the real shells' names.
@Suite(.serialized) struct DesktopInUseTests {
    static let leftOver = """
        [org/gnome/desktop/notifications]
        show-banners=false

        [org/cinnamon/desktop/notifications]
        display-notifications=false

        [org/mate/notification-daemon]
        do-not-disturb=true
        """

    @Test func theSessionNamesTheCandidates() {
        #expect(SessionDesktops.candidates("GNOME") == [.gnome])
        #expect(SessionDesktops.candidates("ubuntu:GNOME") == [.gnome])
        #expect(SessionDesktops.candidates("gnome-classic:GNOME") == [.gnome])
        #expect(SessionDesktops.candidates("KDE") == [.kde])
        #expect(SessionDesktops.candidates("XFCE") == [.xfce])
        #expect(SessionDesktops.candidates("X-Cinnamon") == [.cinnamon])
        #expect(SessionDesktops.candidates("MATE") == [.mate])
        // A desktop iCare reads nothing of: none (not "all").
        #expect(SessionDesktops.candidates("sway") == [])
        #expect(SessionDesktops.candidates("Hyprland") == [])
        // Nothing named: every desktop with a shell to look for on the bus.
        #expect(SessionDesktops.candidates(nil) == [.gnome, .kde, .cinnamon])
        #expect(SessionDesktops.candidates("") == [.gnome, .kde, .cinnamon])
        #expect(SessionDesktops.candidates("::") == [.gnome, .kde, .cinnamon])
    }

    func harness(_ session: String, shells: [String], plasma: FakePlasma? = nil) throws -> MonitorHarness {
        let h = try MonitorHarness()
        try DconfFiles(root: h.directory).install(Self.leftOver)
        for name in shells { try h.appear(FakeServer(source: "shell", busName: name)) }
        if let plasma { try h.appear(plasma) }
        try h.startMonitor(session: session)
        #expect(try waitUntil(timeout: 3) { try h.settled() })
        return h
    }

    @Test func plasmaIgnoresEveryDconfSwitchAndStillHasItsOwn() throws {
        let plasma = FakePlasma()
        let h = try harness("KDE", shells: ["org.kde.plasmashell"], plasma: plasma)
        defer { h.stop() }
        #expect(try h.waitFound("kde"))
        #expect(try h.state() == "off")
        #expect(try h.found() == ["kde"])
        try h.sync { plasma.setDND(true) }
        #expect(try h.waitFor("on kde"))
    }

    @Test func gnomeNamedButItsShellAbsentIsNotObeyedUntilItComes() throws {
        let h = try harness("GNOME", shells: [])
        defer { h.stop() }
        #expect(try h.state() == "off")
        #expect(try h.found() == [])
        try h.appear(FakeServer(source: "shell", busName: "org.gnome.Shell"))
        #expect(try h.waitFor("on gnome"))
        // Cinnamon's and MATE's switches are not GNOME's: never read here.
        #expect(try h.found() == ["gnome"])
    }

    @Test func nothingNamedTheShellOnTheBusDecides() throws {
        let h = try harness("", shells: ["org.Cinnamon"])
        defer { h.stop() }
        #expect(try h.waitFor("on cinnamon"))
        #expect(try h.found() == ["cinnamon"])
    }

    @Test func nothingNamedAndNoShellReadsNothingFromDconf() throws {
        let h = try harness("", shells: [])
        defer { h.stop() }
        #expect(try h.state() == "off")
        #expect(try h.found() == [])
    }

    @Test func xfconfStartedOnGnomeIsNotXfcesSwitch() throws {
        // xfconfd is D-Bus activated: an XFCE program run in GNOME starts it, with XFCE's switch left on.
        let xfconf = FakeXfconf()
        xfconf.setDND(true)
        let h = try MonitorHarness()
        defer { h.stop() }
        try h.appear(FakeServer(source: "shell", busName: "org.gnome.Shell"))
        try h.appear(xfconf)
        try h.startMonitor(session: "GNOME")
        #expect(try waitUntil(timeout: 3) { try h.settled() })
        #expect(try h.state() == "off")
        #expect(try h.found() == [])
    }

    @Test func aCompositorOfNoDesktopReadsNoDesktopsSwitch() throws {
        // sway names itself; even with GNOME Shell's name taken by someone, GNOME's key does not act.
        let h = try harness("sway", shells: ["org.gnome.Shell", "org.Cinnamon"])
        defer { h.stop() }
        #expect(try h.state() == "off")
        #expect(try h.found() == [])
    }
}
