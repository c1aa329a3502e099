import Testing
import Foundation
import TestSupport

extension GnomeShellTests {
    @Test func gnomesShowBannersSettingPausesAndResumesIcared() throws {
        let desktop = try GnomeDesktop.shared()
        defer {
            try? desktop.shell.dconfWrite("/org/gnome/desktop/notifications/show-banners", "true")
            desktop.stopIcared()
        }
        try desktop.startIcared(config: "Interval = 45m\n")
        #expect(try desktop.service.property("DoNotDisturb") == "b false")
        try desktop.shell.dconfWrite("/org/gnome/desktop/notifications/show-banners", "false")
        try desktop.waitForState("paused", timeout: 5)
        #expect(try desktop.service.property("DoNotDisturb") == "b true")
        #expect(try desktop.service.string("DoNotDisturbSource") == "gnome")
        #expect(try desktop.service.string("PauseReason") == "dnd")
        try desktop.shell.dconfWrite("/org/gnome/desktop/notifications/show-banners", "true")
        try desktop.waitForState("waiting", timeout: 5)
        #expect(try desktop.service.property("DoNotDisturb") == "b false")
    }

    /// GNOME 43's own switch: "Do Not Disturb" in the message list, which the clock in the top bar opens.
    @Test func theDoNotDisturbSwitchInTheMessageListPausesAndResumesIcared() throws {
        let desktop = try GnomeDesktop.shared()
        defer {
            try? desktop.shell.pointer().key(GnomeShellHand.escape)
            try? desktop.shell.dconfWrite("/org/gnome/desktop/notifications/show-banners", "true")
            desktop.stopIcared()
        }
        try desktop.startIcared(config: "Interval = 45m\n")
        for (want, state) in [(true, "paused"), (false, "waiting")] {
            try desktop.clickDoNotDisturb()
            try desktop.waitForState(state, timeout: 5)
            #expect(try desktop.service.property("DoNotDisturb") == "b \(want)")
            #expect(try desktop.shell.dconfRead("/org/gnome/desktop/notifications/show-banners") == "\(!want)")
        }
    }
}

extension GnomeDesktop {
    /// Opens the message list with a click on the clock and clicks its "Do Not Disturb" switch, then closes it.
    func clickDoNotDisturb() throws {
        let nodes = try shell.accessibility.nodes()
        guard let clock = nodes.first(where: { $0.role == "menu" && $0.y == 0 && abs($0.centre.x - HeadlessGnomeShell.width / 2) < 100 }) else {
            throw HarnessError("no clock in the top bar: \(nodes.filter { $0.y == 0 })")
        }
        try shell.pointer().click(x: clock.centre.x, y: clock.centre.y)
        var target: GnomeShellAccessibility.Node?
        _ = try waitUntil(timeout: 5, interval: 0.2) {
            let all = try shell.accessibility.nodes()
            // The switch is the button beside the label, or the label's row.
            if let label = all.first(where: { $0.name == "Do Not Disturb" && $0.w > 0 }) {
                target = all.first { ["toggle button", "push button", "check box"].contains($0.role) && abs($0.centre.y - label.centre.y) < 12 && $0.x > label.x }
                    ?? label
            }
            return target != nil
        }
        guard let target else { throw HarnessError("no Do Not Disturb switch in the message list") }
        try shell.pointer().click(x: target.centre.x, y: target.centre.y)
        try shell.pointer().key(GnomeShellHand.escape)
    }
}
