import Foundation

/// iCare's GNOME Shell extension (`ring@icare.org`, installed by the package
/// into the root's /usr/share/gnome-shell/extensions) on the real GNOME Shell
/// 48.7 (trixie) or 50.5 (forky), headless, as the root's ordinary user, with
/// only iCare's extension enabled at the start (no AppIndicator). What a
/// person sees is read the way a person does: screenshots of the top bar
/// (`org.gnome.Shell.Screenshot`) and clicks of a real pointer
/// (`org.gnome.Mutter.RemoteDesktop`), through `ShellExtensionHand`; what the
/// Shell holds (actors, menu items, handlers) through `Eval`, which needs
/// unsafe mode: `--unsafe-mode` on 50; 48 has no such option, so a helper
/// user extension of the test's (not iCare's) sets `global.context.unsafe_mode`.
/// `gnome-extensions` talks to `org.gnome.Shell.Extensions`, which must be
/// activatable on 50 (it is the prefs service there).
public final class ShellExtensionRig: @unchecked Sendable {
    public static let uuid = "ring@icare.org", appIndicator = "ubuntu-appindicators@ubuntu.com"
    public static let width = DesktopRootSession.gnomeShellWidth, height = DesktopRootSession.gnomeShellHeight
    public let root: DesktopRoot
    public let session: DesktopRootSession
    public var release: DesktopRoot.Release { root.release }
    private var hand: ShellExtensionHand?
    private var shots = 0

    /// With `extensionZip`, the extension is also installed from that zip with `gnome-extensions install`,
    /// as a person using the Flatpak does: the user's copy, which the Shell takes before the package's.
    public init(_ release: DesktopRoot.Release, variables: [String: String] = [:], extensionZip: URL? = nil) throws {
        // GNOME 48: Eval only in unsafe mode, and no option for it (50 has --unsafe-mode).
        session = try DesktopRootSession.startGnomeShell(release, activatable: ["org.gnome.Shell.Extensions"], variables: variables,
                                                         eval: release == .trixie, extensions: [Self.uuid], accessibility: false,
                                                         arguments: release == .forky ? ["--unsafe-mode"] : []) { session in
            if let extensionZip { try Self.install(extensionZip, in: session) }
        }
        root = session.root
        do { try waitForShell() } catch { root.stop(); throw error }
    }

    public var shellLog: String { session.log("gnome-shell.log") }

    /// The release's zip, made from this checkout as `scripts/release` makes it (`make shell-extension-zip`).
    public static func releaseZip() throws -> URL {
        let repo = ServiceHarness.repo
        let r = try Subprocess.run(["make", "-s", "-C", repo.path, "shell-extension-zip"])
        guard r.status == 0 else { throw HarnessError("make shell-extension-zip: \(r)") }
        return repo.appendingPathComponent("build/\(uuid).shell-extension.zip")
    }

    /// `gnome-extensions install --force ZIP` inside the root, as the root's user, before the Shell starts.
    private static func install(_ zip: URL, in session: DesktopRootSession) throws {
        let inside = session.root.work.appendingPathComponent(zip.lastPathComponent)
        try? FileManager.default.removeItem(at: inside)
        try FileManager.default.copyItem(at: zip, to: inside)
        let r = try session.run(["gnome-extensions", "install", "--force", inside.path])
        guard r.status == 0 else { throw HarnessError("gnome-extensions install \(zip.lastPathComponent): \(r)") }
    }

    private func waitForShell() throws {
        _ = try root.folder("shots")
        guard try session.waitForName("org.gnome.Shell", timeout: 90) else {
            throw HarnessError("gnome-shell \(release.gnomeShell) did not take org.gnome.Shell:\n\(shellLog)")
        }
        // Mutter's remote desktop comes on the bus a moment after the Shell's name on 50.5.
        guard try session.waitForName("org.gnome.Mutter.RemoteDesktop", timeout: 30) else {
            throw HarnessError("GNOME Shell \(release.gnomeShell) offers no org.gnome.Mutter.RemoteDesktop:\n\(shellLog)")
        }
        let hand = try ShellExtensionHand(environment: [
            "DBUS_SESSION_BUS_ADDRESS": session.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "", "PATH": "/usr/bin:/bin",
        ])
        self.hand = hand
        // Eval answers (unsafe mode on) and the extension's indicator is in the top bar.
        var last = ""
        let ready = waitUntil(timeout: 60, interval: 0.3) {
            last = (try? eval("Main.panel.statusArea['\(Self.uuid)'] !== undefined && !Main.layoutManager._startingUp")) ?? last
            return last == "true"
        }
        guard ready else {
            throw HarnessError("GNOME Shell \(release.gnomeShell): no iCare indicator in the top bar (Eval said \(last)):\n\(shellLog)")
        }
    }

    // Eval, the pointer and the eyes.

    private func theHand() throws -> ShellExtensionHand {
        guard let hand else { throw HarnessError("the shell is not running") }
        return hand
    }

    /// Runs `js` (an expression) in the Shell; its value as JSON (the Shell's Eval answers JSON.stringify of it).
    @discardableResult
    public func eval(_ js: String) throws -> String {
        let answer = try theHand().ask("eval", Self.json(["(() => { return \(js); })()"]))
        guard let pair = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [Any], pair.count == 2,
              let ok = pair[0] as? Bool, let value = pair[1] as? String else { throw HarnessError("Eval answered \(answer)") }
        guard ok else { throw HarnessError("Eval of \(js) failed: \(value)") }
        return value
    }

    /// `eval`, decoded.
    public func evalObject(_ js: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(try eval(js).utf8), options: [.fragmentsAllowed])
    }

    /// A click of the left button at (x, y), as a person's pointer does it (rests there first).
    public func click(x: Int, y: Int) throws {
        let hand = try theHand()
        _ = try hand.ask("move", "5000 5000")
        _ = try hand.ask("move", "\(x - Self.width + 1) \(y - Self.height + 1)")
        Thread.sleep(forTimeInterval: 0.25)
        _ = try hand.ask("button", "272 1")
        _ = try hand.ask("button", "272 0")
    }

    /// The Escape key (closes a menu).
    public func escape() throws {
        let hand = try theHand()
        _ = try hand.ask("key", "65307 1")
        _ = try hand.ask("key", "65307 0")
    }

    /// The whole screen, now.
    public func screenshot() throws -> Screenshot {
        shots += 1
        return try theHand().screenshot(shots, in: root.work)
    }

    /// Keeps the last screenshot where a person can look at it (ICARE_SHOTS names a folder).
    public func keepShot(_ name: String) { ShellExtensionHand.keep(shots, in: root.work, as: name, release: release) }

    // The session's clients, inside the root.

    /// `gnome-extensions ARGS…` inside the root.
    public func gnomeExtensions(_ arguments: [String]) throws -> ProcessResult {
        try session.run(["gnome-extensions"] + arguments)
    }

    /// A method of the Shell's own org.gnome.Shell.Extensions (EnableExtension, DisableExtension, …) for `uuid`.
    @discardableResult
    public func extensions(_ method: String, _ uuid: String = ShellExtensionRig.uuid) throws -> String {
        try session.call("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Extensions." + method, [uuid])
    }

    public func icareProperty(_ name: String) throws -> String { try session.icareProperty(name) }

    public func stop() {
        hand?.stop()
        hand = nil
        root.stop()
    }

    deinit { stop() }

    static func json(_ array: [Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: array, options: [.fragmentsAllowed])) ?? Data("[]".utf8)
        let text = String(decoding: data, as: UTF8.self)
        return String(text.dropFirst().dropLast())
    }
}
