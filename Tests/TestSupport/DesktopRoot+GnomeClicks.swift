import Foundation

/// A person's pointer and eyes on the real GNOME Shell 48.7 or 50.5 of a
/// `GnomeBannerShell` (animations on, `Eval`, the login overview closed):
/// clicks and screenshots through `ShellExtensionHand` (Mutter's
/// RemoteDesktop; `org.gnome.Shell.Screenshot` answering a caller that owns
/// `org.gnome.SettingsDaemon.MediaKeys`, on 48 and 50 alike), and what the
/// shell records of its banner (hover, visibility) for messages.
public final class GnomeClicksRig: @unchecked Sendable {
    public let shell: GnomeBannerShell
    public var root: DesktopRoot { shell.root }
    public var session: DesktopRootSession { shell.session }
    public var release: DesktopRoot.Release { shell.root.release }
    public static let width = 1280, height = 800
    private let hand: ShellExtensionHand
    private var shots = 0

    /// `firstStart`: a home iCare never ran in.
    public init(_ release: DesktopRoot.Release, variables: [String: String] = [:], firstStart: Bool = false) throws {
        shell = try GnomeBannerShell(release, variables: variables, firstStart: firstStart)
        do {
            guard try shell.session.waitForName("org.gnome.Mutter.RemoteDesktop", timeout: 30) else {
                throw HarnessError("GNOME Shell \(release.gnomeShell) offers no org.gnome.Mutter.RemoteDesktop")
            }
            hand = try ShellExtensionHand(environment: [
                "DBUS_SESSION_BUS_ADDRESS": shell.session.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "", "PATH": "/usr/bin:/bin",
            ])
            _ = try root.folder("shots")
        } catch {
            shell.stop()
            throw error
        }
    }

    /// Moves the pointer to (x, y): into the bottom-right corner, then back (motion is relative only).
    public func move(x: Int, y: Int) throws {
        _ = try hand.ask("move", "5000 5000")
        _ = try hand.ask("move", "\(x - Self.width + 1) \(y - Self.height + 1)")
    }

    /// A small motion by (dx, dy), as a hand resting on the mouse makes.
    public func nudge(_ dx: Int, _ dy: Int) throws { _ = try hand.ask("move", "\(dx) \(dy)") }

    /// Presses and releases the left button where the pointer is.
    public func press() throws {
        _ = try hand.ask("button", "272 1")
        _ = try hand.ask("button", "272 0")
    }

    /// Moves to (x, y), rests there a moment, clicks the left button.
    public func click(x: Int, y: Int, rest: TimeInterval = 0.3) throws {
        try move(x: x, y: y)
        Thread.sleep(forTimeInterval: rest)
        try press()
    }

    public func key(_ keysym: Int) throws {
        _ = try hand.ask("key", "\(keysym) 1")
        _ = try hand.ask("key", "\(keysym) 0")
    }

    /// The pointer's place as the shell has it.
    public func pointer() throws -> (x: Int, y: Int) {
        let n = try shell.eval("global.get_pointer().slice(0, 2).join(' ')").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            .split(separator: " ").compactMap { Int($0) }
        return n.count == 2 ? (n[0], n[1]) : (-1, -1)
    }

    /// The whole screen now; the PNG stays in `root.work/shots` (see `keepShot`).
    public func screenshot() throws -> Screenshot {
        shots += 1
        return try hand.screenshot(shots, in: root.work)
    }

    /// The last screenshot's PNG.
    public var lastShot: String { root.work.appendingPathComponent("shots/\(shots).png").path }

    /// Copies the last screenshot to ICARE_SHOTS/RELEASE-NAME.png when ICARE_SHOTS names a folder.
    public func keepShot(_ name: String) { ShellExtensionHand.keep(shots, in: root.work, as: name, release: release) }

    /// The banner's hover and visibility changes the shell recorded since the last call (`GnomeBannerShell`).
    public func bannerEvents() throws -> String {
        try shell.eval("globalThis.icareEvents.splice(0).join('; ')")
    }

    /// Writes iCare's config and activates icared; waits for the reminder's banner; its box (`waitForBanner`).
    public func waitForReminder(interval: String = "15m", breakSeconds: Int, timeout: TimeInterval = 40) throws
        -> (x: Int, y: Int, w: Int, h: Int) {
        _ = try root.folder("config/icare")
        try "Interval = \(interval)\nBreakDuration = \(breakSeconds)s\n"
            .write(to: root.work.appendingPathComponent("config/icare/config"), atomically: true, encoding: .utf8)
        _ = try session.icareProperty("Version")
        return try waitForBanner(timeout: timeout)
    }

    /// Waits for the banner titled `title` and returns its box, the pointer moving meanwhile (`whileMoving`).
    public func waitForBanner(_ title: String = "Time for an eye break", timeout: TimeInterval = 40) throws
        -> (x: Int, y: Int, w: Int, h: Int) {
        var box: (x: Int, y: Int, w: Int, h: Int)?
        let shown = try whileMoving(timeout: timeout) {
            guard try shell.bannerTitle() == title else { return false }
            box = try shell.bannerBox()
            return box != nil
        }
        guard shown, let box else {
            throw HarnessError("no '\(title)' banner on GNOME Shell \(release.gnomeShell): shown '\((try? shell.bannerTitle()) ?? "?")', "
                + "listed '\((try? shell.listedTitles()) ?? "")', state \((try? session.icareProperty("State")) ?? "?")\n\(shell.shellLog.suffix(2000))")
        }
        return box
    }

    /// Waits until `condition` holds while the pointer moves a pixel each second, as a person at work moves it:
    /// with no input for a break's length icared counts the time away as a break and withdraws the reminder the
    /// moment the pointer moves again.
    public func whileMoving(timeout: TimeInterval, _ condition: () throws -> Bool) throws -> Bool {
        var nudged = Date(), sign = 1
        return try waitUntil(timeout: timeout, interval: 0.1) {
            if Date().timeIntervalSince(nudged) > 1 {
                try nudge(sign, 0)
                sign = -sign
                nudged = Date()
            }
            return try condition()
        }
    }

    /// As a person does: the pointer onto the middle of the banner `box` (GNOME draws the buttons only while
    /// it is hovered) until the button labelled `label` is drawn in its place, at least `minHeight` px high.
    /// Returns the button's box; throws when no such button showed under the hovering pointer.
    public func hoverButton(_ label: String, onBanner box: (x: Int, y: Int, w: Int, h: Int),
                            minHeight: Int = 1) throws -> (x: Int, y: Int, w: Int, h: Int) {
        try move(x: box.x + box.w / 2, y: box.y + box.h / 2)
        // The buttons grow into place (0 px high at first, where a click lands on the body).
        let button = try steadyBox(minHeight: minHeight, { try shell.bannerBox(button: label) },
                                   until: { try shell.eval("Main.messageTray._bannerBin.hover") == "true" })
        guard let button else {
            throw HarnessError("no '\(label)' under a hovering pointer at \(String(describing: try? pointer())) on GNOME Shell "
                + "\(release.gnomeShell); banner \(box); events \((try? bannerEvents()) ?? "")")
        }
        return button
    }

    /// The box `read` gives once it is drawn (w > 0, h ≥ `minHeight`) and the same on two reads running, with
    /// `ready` true: an actor that has stopped growing, sliding or being rebuilt. Nil when none within `timeout`.
    public func steadyBox(timeout: TimeInterval = 3, interval: TimeInterval = 0.1, minHeight: Int = 1,
                          _ read: () throws -> (x: Int, y: Int, w: Int, h: Int)?,
                          until ready: () throws -> Bool = { true }) throws -> (x: Int, y: Int, w: Int, h: Int)? {
        var found: (x: Int, y: Int, w: Int, h: Int)?, last = ""
        let steady = try waitUntil(timeout: timeout, interval: interval) {
            let previous = last
            found = try read()
            last = found.map { "\($0)" } ?? ""
            guard let b = found, b.w > 0, b.h >= max(minHeight, 1), last == previous else { return false }
            return try ready()
        }
        return steady ? found : nil
    }

    /// `hoverButton`, then a click on the middle of the button, found where it is drawn. Returns its box.
    @discardableResult
    public func clickButton(_ label: String, onBanner box: (x: Int, y: Int, w: Int, h: Int)) throws -> (x: Int, y: Int, w: Int, h: Int) {
        let button = try hoverButton(label, onBanner: box)
        try click(x: button.x + button.w / 2, y: button.y + button.h / 2)
        return button
    }

    /// The box on the screen of the actor `js` evaluates to (nil when there is none or it is not mapped).
    public func box(_ js: String) throws -> (x: Int, y: Int, w: Int, h: Int)? {
        let text = try shell.eval("""
            (() => { const a = \(js); if (!a || !a.is_mapped()) return '';
              return [...a.get_transformed_position(), ...a.get_transformed_size()].map(Math.round).join(' '); })()
            """)
        let n = text.trimmingCharacters(in: CharacterSet(charactersIn: "\"")).split(separator: " ").compactMap { Int($0) }
        return n.count == 4 ? (n[0], n[1], n[2], n[3]) : nil
    }

    /// Enables another installed extension in the running shell (org.gnome.Shell.Extensions), and waits until it is ACTIVE.
    public func enableExtension(_ uuid: String) throws {
        _ = try session.call("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Extensions.EnableExtension", [uuid])
        guard try waitUntil(timeout: 15, interval: 0.2, {
            try session.call("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Extensions.GetExtensionInfo", [uuid])
                .contains("'state': <1.0>")
        }) else { throw HarnessError("\(uuid) did not become active on GNOME Shell \(release.gnomeShell):\n\(shell.shellLog.suffix(2000))") }
    }

    /// A number property of iCare's service (`u` or `t`, as gdbus prints `(<uint32 1>,)`); nil when it is not one.
    public func number(_ name: String) throws -> UInt64? {
        let text = try session.icareProperty(name)
        return UInt64(text.split(separator: " ").last?.prefix { $0.isNumber } ?? "")
    }

    /// From now on the shell records the title of each notification added to a source (a new
    /// notification, not an update of one); `addedNotifications` reads them.
    public func recordAddedNotifications() throws {
        _ = try shell.eval("""
            globalThis.icareAdded = [];
            const follow = s => s.connect('notification-added', (_s, n) => globalThis.icareAdded.push(n.title));
            Main.messageTray.getSources().forEach(follow);
            Main.messageTray.connect('source-added', (_t, s) => follow(s));
            """)
    }

    /// The titles of the notifications added since the last call (`recordAddedNotifications`).
    public func addedNotifications() throws -> [String] {
        let text = try shell.eval("globalThis.icareAdded.splice(0).join(' | ')").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        return text.isEmpty ? [] : text.components(separatedBy: " | ")
    }

    /// The titles in the message list (`GnomeBannerShell.listedTitles`), without Eval's quotes.
    public func listed() throws -> [String] {
        let text = try shell.listedTitles().trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        return text.isEmpty ? [] : text.components(separatedBy: " | ")
    }

    public func state() -> String { (try? session.icareProperty("State")) ?? "(icared does not answer)" }

    public func waitForState(_ value: String, timeout: TimeInterval = 5) throws -> Bool {
        try waitUntil(timeout: timeout, interval: 0.1) { try session.icareProperty("State") == "(<'\(value)'>,)" }
    }

    public func stop() {
        hand.stop()
        shell.stop()
    }

    deinit { stop() }
}
