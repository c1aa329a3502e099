import Testing
import Foundation
import TestSupport

/// When the monitor uses the Wayland compositor's idle protocol: a real
/// headless sway (sway 1.7: `org_kde_kwin_idle`) and the fake Mutter.
@Suite struct WaylandSourceTests {
    static let found = "wayland org_kde_kwin_idle"

    @Test func withoutMutterItWatchesSwayAndReportsIdleAndTheReturn() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let rig = try Rig(systemBus: false)
        defer { rig.stop() }
        rig.start(threshold: 1, waylandDisplay: sway.socket)
        #expect(rig.waitFound(Self.found), "\(rig.logged)")
        #expect(rig.waitLogged("watching the Wayland compositor's idle notifications (org_kde_kwin_idle on \(sway.socket))"))
        // No input for the 1 s threshold.
        #expect(rig.expectEvents(endingWith: ["idle true"]), "\(rig.events.value)")
        try sway.type("a")
        #expect(rig.expectEvents(endingWith: ["idle true", "idle false"]), "\(rig.events.value)")
        #expect(rig.onMonitor { $0.isIdle } == false)
    }

    @Test func withMutterOnTheBusTheWaylandDisplayIsNeverUsed() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let rig = try Rig(systemBus: false)
        defer { rig.stop() }
        let mutter = try MutterRig(bus: rig.session)
        defer { mutter.stop() }
        rig.start(threshold: 1, waylandDisplay: sway.socket)
        // Mutter's presence is known (and the choice made) before its idle watch is added.
        #expect(waitUntil { mutter.calls == ["AddIdleWatch 1000"] }, "\(mutter.calls)")
        #expect(!rig.found.contains(Self.found), "\(rig.found)")
        #expect(!rig.logged.contains { $0.contains("Wayland") }, "\(rig.logged)")

        // Mutter gone (not a Wayland GNOME session after all): the compositor's protocol takes over.
        mutter.quit()
        #expect(rig.waitFound(Self.found), "\(rig.logged)")
        #expect(rig.expectEvents(endingWith: ["idle true"]), "\(rig.events.value)")
        // Mutter back: the Wayland watch stops, and the idleness it said ends with it.
        try mutter.appear(bus: rig.session)
        #expect(rig.waitLogged("org.gnome.Mutter.IdleMonitor is on the bus: the Wayland idle watch is not needed"))
        #expect(rig.expectEvents(endingWith: ["idle true", "idle false"]), "\(rig.events.value)")
        #expect(!rig.found.contains(Self.found), "\(rig.found)")
    }

    @Test func anUnreachableDisplayIsLoggedOnceAndNotTriedAgain() throws {
        let rig = try Rig(systemBus: false)
        defer { rig.stop() }
        let mutter = try MutterRig(bus: rig.session)
        defer { mutter.stop() }
        mutter.quit()
        rig.start(threshold: 10, waylandDisplay: "/nonexistent/icare-test/wayland-9")
        #expect(rig.waitLogged("cannot connect to the Wayland display /nonexistent/icare-test/wayland-9: No such file or directory: no idle watch from the Wayland compositor"),
                "\(rig.logged)")
        // Mutter comes and goes again: no second try.
        try mutter.appear(bus: rig.session)
        #expect(rig.waitFound("org.gnome.Mutter.IdleMonitor"))
        mutter.quit()
        #expect(waitUntil { !rig.found.contains("org.gnome.Mutter.IdleMonitor") })
        #expect(rig.count(logged: "cannot connect to the Wayland display") == 1, "\(rig.logged)")
    }

    @Test func anEmptyWaylandDisplayIsNoWaylandSession() throws {
        let rig = try Rig(systemBus: false)
        defer { rig.stop() }
        rig.start(threshold: 10, waylandDisplay: "")
        #expect(rig.waitLogged("org.gnome.Mutter.IdleMonitor is not on the session bus"))
        #expect(!rig.logged.contains { $0.contains("Wayland") }, "\(rig.logged)")
    }

    @Test func swayKilledWhileIdleIsPresentAgainAndLoggedOnce() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let rig = try Rig(systemBus: false)
        defer { rig.stop() }
        rig.start(threshold: 1, waylandDisplay: sway.socket)
        #expect(rig.expectEvents(endingWith: ["idle true"]), "\(rig.events.value)")
        sway.kill9()
        #expect(rig.expectEvents(endingWith: ["idle true", "idle false"]), "\(rig.events.value)")
        #expect(rig.waitLogged("went away (the compositor closed the connection)"))
        #expect(!rig.found.contains(Self.found))
        rig.onMonitor { $0.setIdleThreshold(seconds: 5) }
        #expect(rig.count(logged: "went away") == 1, "\(rig.logged)")
    }
}
