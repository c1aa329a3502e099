import Testing
import Foundation
import TestSupport

/// Issue 29 on the real GNOME Shell 48.7 and 50.5 (the package in the Debian roots): the route for
/// GNOME without iCare's own extension. With `ring@icare.org` off and the AppIndicator extension on,
/// icared's StatusNotifierItem is the ring in the top bar (its pixels in a screenshot), and a real click
/// (Mutter's RemoteDesktop) opens its menu, whose items change icared's state.
@Suite(.serialized) struct GnomeAppIndicatorInRootTests {
    static let blue: [UInt8] = [0x35, 0x84, 0xE4]

    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func theRingAndItsMenuThroughTheAppIndicatorExtension(_ release: DesktopRoot.Release) throws {
        let started = Date()
        let rig = try GnomeClicksRig(release)
        defer { rig.stop() }
        try rig.enableExtension("ubuntu-appindicators@ubuntu.com")
        #expect(try rig.session.waitForName("org.kde.StatusNotifierWatcher", timeout: 10))
        let ours = try rig.session.call("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Extensions.GetExtensionInfo",
                                        ["ring@icare.org"])
        #expect(ours.contains("'enabled': <false>") && !ours.contains("'state': <1.0>"), "iCare's extension: \(ours)")
        _ = try rig.root.folder("config/icare")
        try "Interval = 20m\nBreakDuration = 20s\n"
            .write(to: rig.root.work.appendingPathComponent("config/icare/config"), atomically: true, encoding: .utf8)
        _ = try rig.session.icareProperty("Version")

        // The item's button in the top bar, and the ring's blue in it (the extension draws the pixmap
        // through a colour effect: within 24 per channel, as on GNOME 43).
        let button = "Object.entries(Main.panel.statusArea).find(([k]) => k.startsWith('appindicator-'))?.[1]"
        var box: (x: Int, y: Int, w: Int, h: Int)?, pixels = 0, keys = ""
        let ringShown = try waitUntil(timeout: 20, interval: 0.3) {
            box = try rig.box(button)
            guard let b = box, b.w > 0 else { return false }
            let shot = try rig.screenshot()
            pixels = Self.count(Self.blue, in: shot, x: b.x..<(b.x + b.w), y: b.y..<(b.y + b.h), tolerance: 24)
            return pixels > 30
        }
        rig.keepShot("appindicator-ring")
        keys = (try? rig.shell.eval("Object.keys(Main.panel.statusArea).join(' ')")) ?? ""
        try #require(ringShown, "no ring in the top bar: button \(String(describing: box)), \(pixels) blue pixels; statusArea \(keys)")
        let b = try #require(box)
        #expect(b.y < 32 && b.x > GnomeClicksRig.width / 2, "the ring is not at the top bar's right: \(b)")

        // A single left click opens the menu (as on 43).
        let menu = "\(button).menu"
        try rig.click(x: b.x + b.w / 2, y: b.y + b.h / 2)
        let opened = try waitUntil(timeout: 5, interval: 0.1) { try rig.shell.eval("\(menu).isOpen") == "true" }
        try #require(opened, "a click on the ring at \(b) opened no menu; the shell's log:\n\(rig.shell.shellLog.suffix(1500))")
        Thread.sleep(forTimeInterval: 0.5)
        let items = try Self.items(rig, menu)
        _ = try rig.screenshot()
        rig.keepShot("appindicator-menu")
        let labels = items.map(\.label)
        #expect(labels.contains("Start break now") && labels.contains("Pause for 30 min"), "the menu: \(labels)")
        try Self.clickItem("Pause for 30 min", rig, menu)
        #expect(try rig.waitForState("paused"), "Pause for 30 min clicked: \(rig.state())")
        #expect(try rig.session.icareProperty("PauseReason") == "(<'user'>,)")
        #expect(try waitUntil(timeout: 3, interval: 0.1) { try rig.shell.eval("\(menu).isOpen") == "false" })

        // The menu follows: Resume is on now, and works.
        // The paused ring is another pixmap: the button's box is read again, after the menu's close has settled.
        Thread.sleep(forTimeInterval: 0.5)
        let again = try #require(try rig.box(button), "the ring left the top bar after the pause")
        try rig.click(x: again.x + again.w / 2, y: again.y + again.h / 2)
        #expect(try waitUntil(timeout: 5, interval: 0.1) { try rig.shell.eval("\(menu).isOpen") == "true" },
                "a second click on the ring at \(again) (first at \(b)) opened no menu")
        let resume = try Self.clickItem("Resume", rig, menu)
        #expect(try rig.waitForState("waiting"), "Resume clicked at \(resume): \(rig.state()); the menu \((try? Self.items(rig, menu)) ?? [])")
        print("GnomeAppIndicatorInRootTests on GNOME Shell \(release.gnomeShell): \(Int(Date().timeIntervalSince(started))) s; menu \(labels)")
    }

    struct MenuItem: CustomStringConvertible {
        let label: String, sensitive: Bool, x: Int, y: Int, w: Int, h: Int
        var description: String { label + (sensitive ? "" : " (off)") }
    }

    /// As a person does: the pointer onto the item labelled `label` once it can be clicked and has stopped
    /// moving (the menu slides open, and the extension rebuilds its items when icared's menu changes), then
    /// the press once the item is lit under the pointer. Returns the item as it was clicked.
    @discardableResult
    static func clickItem(_ label: String, _ rig: GnomeClicksRig, _ menu: String) throws -> MenuItem {
        var found: MenuItem?
        let box = try rig.steadyBox(timeout: 5, interval: 0.15, {
            found = try items(rig, menu).first { $0.label == label && $0.sensitive }
            return found.map { ($0.x, $0.y, $0.w, $0.h) }
        })
        guard box != nil, let item = found else {
            throw HarnessError("no '\(label)' that can be clicked stood still in the menu: \((try? items(rig, menu)) ?? [])")
        }
        try rig.move(x: item.x + item.w / 2, y: item.y + item.h / 2)
        let lit = "\(menu)._getMenuItems().find(m => m.visible && m.label?.text === '\(label)')?.active"
        guard try waitUntil(timeout: 3, interval: 0.1, { try rig.shell.eval(lit) == "true" }) else {
            throw HarnessError("'\(label)' at \(item.x),\(item.y) \(item.w)×\(item.h) is not lit under the pointer at \((try? rig.pointer()).map { "\($0)" } ?? "?")")
        }
        try rig.press()
        return item
    }

    /// The open menu's visible items with words (the AppIndicator extension's PopupMenuItems).
    static func items(_ rig: GnomeClicksRig, _ menu: String) throws -> [MenuItem] {
        let text = try rig.shell.eval("""
            \(menu)._getMenuItems().filter(m => m.visible && m.label && m.label.text).map(m =>
              [m.label.text, m.getSensitive(), ...[...m.get_transformed_position(), ...m.get_transformed_size()].map(Math.round)].join(';')).join('|')
            """).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        return text.split(separator: "|").compactMap { row in
            let f = row.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 6 else { return nil }
            return MenuItem(label: f[0], sensitive: f[1] == "true", x: Int(f[2]) ?? -1, y: Int(f[3]) ?? -1, w: Int(f[4]) ?? -1, h: Int(f[5]) ?? -1)
        }
    }

    /// Pixels of `colour` (within `tolerance` per channel) in the box.
    static func count(_ colour: [UInt8], in shot: Screenshot, x xs: Range<Int>, y ys: Range<Int>, tolerance: Int) -> Int {
        var n = 0
        for y in ys.clamped(to: 0..<shot.height) {
            for x in xs.clamped(to: 0..<shot.width) where zip(shot.pixel(x, y), colour).allSatisfy({ abs(Int($0) - Int($1)) <= tolerance }) {
                n += 1
            }
        }
        return n
    }
}
