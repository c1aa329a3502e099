import Testing
import Foundation
import TestSupport
@testable import Presence

/// Screensavers (python3-dbusmock) and GNOME's idle monitor (a Swift fake) on a private session bus.
@Suite struct SessionBusTests {
    /// What the idle tests start from: the fake Mutter on the rig's session bus and the monitor
    /// started with a 30 s threshold; `stop()` ends both, Mutter first.
    struct MutterDesk {
        let rig: Rig, mutter: MutterRig

        init(systemBus: Bool = false) throws {
            rig = try Rig(systemBus: systemBus)
            do { mutter = try MutterRig(bus: rig.session) } catch { rig.stop(); throw error }
            rig.start(threshold: 30)
        }

        func stop() {
            mutter.stop()
            rig.stop()
        }
    }

    /// GNOME's screensaver, dbusmock's `gnome_screensaver` template.
    private func gnomeScreenSaver(on bus: PrivateBus) throws -> DBusMock {
        try DBusMock(bus: bus, name: "org.gnome.ScreenSaver", arguments: ["--template", "gnome_screensaver"])
    }

    /// GNOME's screensaver turned on or off (`SetActive`), as its lock screen does.
    private func setActive(_ gnome: DBusMock, _ active: Bool) throws {
        try gnome.call("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "SetActive", ["b", active ? "true" : "false"])
    }

    /// `org.freedesktop.ScreenSaver` as KDE serves it at `/ScreenSaver`: dbusmock
    /// has no template for it, so a small template file gives it its methods
    /// before the name appears.
    private func freedesktopScreenSaver(on bus: PrivateBus, active: Bool) throws -> DBusMock {
        let template = try DBusMockTemplates.freedesktopScreenSaver(in: bus.directory)
        return try DBusMock(bus: bus, name: "org.freedesktop.ScreenSaver",
                            arguments: ["--template", template, "-p", "{\"active\": \(active)}"])
    }

    @Test func activeChangedFromBothScreensaversLocks() throws {
        let rig = try Rig(systemBus: false)
        defer { rig.stop() }
        let gnome = try gnomeScreenSaver(on: rig.session)
        rig.start()
        #expect(rig.waitFound("org.gnome.ScreenSaver"), "\(rig.found)")

        try setActive(gnome, true)
        #expect(rig.expectEvents(endingWith: ["locked true"]), "\(rig.events.value)")
        try setActive(gnome, false)
        #expect(rig.expectEvents(endingWith: ["locked true", "locked false"]), "\(rig.events.value)")

        // The freedesktop one appears later, already active: read with GetActive (on /ScreenSaver, the second path).
        let kde = try freedesktopScreenSaver(on: rig.session, active: true)
        #expect(rig.waitFound("org.freedesktop.ScreenSaver"), "\(rig.found)")
        #expect(rig.expectEvents(endingWith: ["locked false", "locked true"]), "\(rig.events.value)")
        // Both active, one ends: still locked; both end: unlocked.
        try setActive(gnome, true)
        try kde.call("/ScreenSaver", "org.freedesktop.ScreenSaver", "SetActive", ["b", "false"])
        Thread.sleep(forTimeInterval: 0.2)
        #expect(rig.events.value == ["locked true", "locked false", "locked true"])
        try setActive(gnome, false)
        #expect(rig.expectEvents(endingWith: ["locked true", "locked false"]), "\(rig.events.value)")
        try kde.call("/ScreenSaver", "org.freedesktop.ScreenSaver", "SetActive", ["b", "true"])
        #expect(rig.expectEvents(endingWith: ["locked false", "locked true"]), "\(rig.events.value)")
        // It vanishes while active: no longer counts.
        kde.kill()
        #expect(rig.expectEvents(endingWith: ["locked true", "locked false"]), "\(rig.events.value)")
    }

    @Test func idleWatchFiresThenUserActiveWatchReportsTheReturn() throws {
        let desk = try MutterDesk()
        defer { desk.stop() }
        let (rig, mutter) = (desk.rig, desk.mutter)
        #expect(waitUntil { mutter.calls == ["AddIdleWatch 30000"] }, "\(mutter.calls)")
        #expect(rig.found.contains("org.gnome.Mutter.IdleMonitor"))

        mutter.with { $0.pretendIdle(seconds: 31) }
        #expect(rig.expectEvents(endingWith: ["idle true"]), "\(rig.events.value)")
        #expect(waitUntil { mutter.with { $0.activeWatchCount } == 1 })
        mutter.with { $0.input() }
        #expect(rig.expectEvents(endingWith: ["idle true", "idle false"]), "\(rig.events.value)")

        // The idle watch is persistent: the second absence needs no new watch.
        mutter.with { $0.pretendIdle(seconds: 45) }
        #expect(rig.expectEvents(endingWith: ["idle false", "idle true"]), "\(rig.events.value)")
        #expect(waitUntil { mutter.with { $0.activeWatchCount } == 1 })
        mutter.with { $0.input() }
        #expect(rig.expectEvents(endingWith: ["idle true", "idle false"]), "\(rig.events.value)")
        #expect(mutter.calls == ["AddIdleWatch 30000", "AddUserActiveWatch", "AddUserActiveWatch"], "\(mutter.calls)")
        #expect(mutter.with { $0.idleWatchCount } == 1)
    }

    @Test func aNewThresholdReplacesTheIdleWatch() throws {
        let desk = try MutterDesk()
        defer { desk.stop() }
        let (rig, mutter) = (desk.rig, desk.mutter)
        #expect(waitUntil { mutter.calls == ["AddIdleWatch 30000"] }, "\(mutter.calls)")
        rig.onMonitor { $0.setIdleThreshold(seconds: 60) }
        // Asked for before the first watch's id came back, the new watch goes out first and watch 1 is removed
        // when its id arrives; either order leaves one watch, at 60 s.
        let replaced = [["AddIdleWatch 30000", "RemoveWatch 1", "AddIdleWatch 60000"],
                        ["AddIdleWatch 30000", "AddIdleWatch 60000", "RemoveWatch 1"]]
        #expect(waitUntil { replaced.contains(mutter.calls) }, "\(mutter.calls)")
        #expect(mutter.with { $0.idleWatchCount } == 1)

        mutter.with { $0.pretendIdle(seconds: 40) }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(rig.events.value.isEmpty, "\(rig.events.value)")
        mutter.with { $0.pretendIdle(seconds: 61) }
        #expect(rig.expectEvents(endingWith: ["idle true"]), "\(rig.events.value)")
    }

    @Test func watchesAreAddedAgainWhenMutterComesBack() throws {
        let desk = try MutterDesk()
        defer { desk.stop() }
        let (rig, mutter) = (desk.rig, desk.mutter)
        #expect(waitUntil { mutter.calls == ["AddIdleWatch 30000"] }, "\(mutter.calls)")
        mutter.with { $0.pretendIdle(seconds: 31) }
        #expect(rig.expectEvents(endingWith: ["idle true"]), "\(rig.events.value)")

        // gnome-shell restarts: idle state is dropped, watches are added on the new one.
        mutter.quit()
        #expect(rig.expectEvents(endingWith: ["idle true", "idle false"]), "\(rig.events.value)")
        try mutter.appear(bus: rig.session)
        #expect(waitUntil { mutter.calls == ["AddIdleWatch 30000"] }, "\(mutter.calls)")
        mutter.with { $0.pretendIdle(seconds: 31) }
        #expect(rig.expectEvents(endingWith: ["idle false", "idle true"]), "\(rig.events.value)")
        #expect(rig.count(logged: "is not on the session bus: no idle watch") == 1, "\(rig.logged)")
    }

    @Test func anIdleInhibitorHoldsPresenceOnlyUpToTheLimit() throws {
        let desk = try MutterDesk()
        defer { desk.stop() }
        let (rig, mutter) = (desk.rig, desk.mutter)
        #expect(waitUntil { mutter.calls == ["AddIdleWatch 30000"] }, "\(mutter.calls)")

        // A video holds an idle inhibitor: Mutter's idle watch stays silent.
        mutter.with { $0.setInhibited(true) }
        mutter.with { $0.pretendIdle(seconds: 1800) }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(rig.events.value.isEmpty)
        // A reminder comes due after 30 min without input: still watching, still present.
        rig.onMonitor { $0.checkAwayDespiteInhibitor() }
        #expect(waitUntil { mutter.calls.contains("GetIdletime") })
        Thread.sleep(forTimeInterval: 0.2)
        #expect(rig.events.value.isEmpty)
        // After an hour without input the person counts as away, and input brings them back.
        mutter.with { $0.pretendIdle(seconds: 3700) }
        rig.onMonitor { $0.checkAwayDespiteInhibitor() }
        #expect(rig.expectEvents(endingWith: ["idle true"]), "\(rig.events.value)")
        #expect(waitUntil { mutter.with { $0.activeWatchCount } == 1 })
        mutter.with { $0.input() }
        #expect(rig.expectEvents(endingWith: ["idle true", "idle false"]), "\(rig.events.value)")
    }

    @Test func withNoSystemBusAndNothingOnTheSessionBusEachMissingSourceIsLoggedOnce() throws {
        let rig = try Rig(systemBus: false)
        defer { rig.stop() }
        rig.start()
        #expect(rig.waitLogged("org.gnome.Mutter.IdleMonitor is not on the session bus"), "\(rig.logged)")
        #expect(rig.waitLogged("org.gnome.ScreenSaver is not on the session bus"))
        #expect(rig.waitLogged("org.freedesktop.ScreenSaver is not on the session bus"))
        #expect(rig.count(logged: "no system bus") == 1, "\(rig.logged)")
        #expect(rig.found.isEmpty)
        // Nothing to report is not an error; calling in is harmless.
        rig.onMonitor { $0.checkAwayDespiteInhibitor() }

        // What appears later still works, and appearing/vanishing logs nothing new as missing.
        let gnome = try gnomeScreenSaver(on: rig.session)
        #expect(rig.waitFound("org.gnome.ScreenSaver"))
        try setActive(gnome, true)
        #expect(rig.expectEvents(endingWith: ["locked true"]), "\(rig.events.value)")
        gnome.kill()
        #expect(rig.expectEvents(endingWith: ["locked true", "locked false"]), "\(rig.events.value)")
        let missing = ["no system bus", "org.gnome.ScreenSaver is not", "org.freedesktop.ScreenSaver is not", "org.gnome.Mutter.IdleMonitor is not"]
        for text in missing { #expect(rig.count(logged: text) == 1, "\(text): \(rig.logged)") }
    }

    @Test func aSystemBusWithoutLogindLeavesTheSessionSourcesWorking() throws {
        let desk = try MutterDesk(systemBus: true)
        defer { desk.stop() }
        let (rig, mutter) = (desk.rig, desk.mutter)
        #expect(rig.waitLogged("logind (org.freedesktop.login1) is not on the system bus"), "\(rig.logged)")
        #expect(waitUntil { mutter.calls == ["AddIdleWatch 30000"] })
        mutter.with { $0.pretendIdle(seconds: 31) }
        #expect(rig.expectEvents(endingWith: ["idle true"]), "\(rig.events.value)")
        #expect(rig.found == ["org.gnome.Mutter.IdleMonitor"], "\(rig.found)")
        #expect(rig.count(logged: "logind") == 1, "\(rig.logged)")
    }
}
