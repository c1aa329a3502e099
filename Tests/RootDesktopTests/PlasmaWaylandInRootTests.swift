import Testing
import Foundation
import TestSupport

/// The real Plasma 6 on Wayland inside a root: `kwin_wayland --virtual` (a copy in the work folder:
/// Debian's file has cap_sys_resource, which the namespace cannot grant), then kactivitymanagerd,
/// kded6, plasmashell and the accessibility bus, as for X11 (`RootPlasma`).
final class RootPlasmaWayland: @unchecked Sendable {
    let root: DesktopRoot
    private(set) var session: DesktopRootSession!

    init(_ release: DesktopRoot.Release) throws {
        root = try DesktopRoot(release)
        do {
            session = try DesktopRootSession(root, activatable: ["org.kde.kded6", "org.kde.kglobalaccel", "org.kde.ActivityManager",
                                                                 "org.icare.Reminder"],
                                             variables: [
                                                 "WAYLAND_DISPLAY": "wayland-icare", "KDE_FULL_SESSION": "true", "XDG_CURRENT_DESKTOP": "KDE",
                                                 "KDE_SESSION_VERSION": "6", "XDG_SESSION_TYPE": "wayland", "QT_QPA_PLATFORM": "wayland",
                                                 "QT_QUICK_BACKEND": "software", "LIBGL_ALWAYS_SOFTWARE": "1",
                                                 "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
                                             ])
            try "[Daemon]\nAutolock=false\nLockOnResume=false\n"
                .write(to: root.work.appendingPathComponent("config/kscreenlockerrc"), atomically: true, encoding: .utf8)
            try start()
        } catch {
            root.stop()
            throw error
        }
    }

    private func start() throws {
        _ = try root.folder("bin")
        let copy = root.work.appendingPathComponent("bin/kwin_wayland").path
        let cp = try session.run(["cp", "/usr/bin/kwin_wayland", copy])
        guard cp.status == 0 else { throw HarnessError("copying kwin_wayland inside: \(cp)") }
        try session.start([copy, "--virtual", "--width", "1280", "--height", "800", "--socket", "wayland-icare"], log: "kwin.log",
                          environment: ["QT_QPA_PLATFORM": "", "WAYLAND_DISPLAY": "", "KWIN_WAYLAND_NO_PERMISSION_CHECKS": "1"])
        guard try session.waitForName("org.kde.KWin", timeout: 30) else {
            throw HarnessError("kwin_wayland did not start in the \(root.release) root: \(session.log("kwin.log"))")
        }
        let manager = try session.run(["sh", "-c", "ls /usr/lib/x86_64-linux-gnu/libexec/kactivitymanagerd /usr/libexec/kactivitymanagerd 2>/dev/null | head -1"])
        try session.start([manager.stdout.trimmingCharacters(in: .whitespacesAndNewlines)], log: "kactivitymanagerd.log")
        try session.start(["kded6"], log: "kded6.log")
        for name in ["org.kde.ActivityManager", "org.kde.kded6"] {
            guard try session.waitForName(name, timeout: 30) else { throw HarnessError("\(name) did not appear in the \(root.release) root") }
        }
        try session.start(["plasmashell", "--no-respawn"], log: "plasmashell.log")
        for name in ["org.freedesktop.Notifications", "org.kde.StatusNotifierWatcher"] {
            guard try session.waitForName(name, timeout: 60) else {
                throw HarnessError("\(name) did not appear in the \(root.release) root; plasmashell:\n\(session.log("plasmashell.log"))")
            }
        }
        try session.start(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], log: "at-spi.log")
        guard try session.waitForName("org.a11y.Bus", timeout: 20) else { throw HarnessError("at-spi-bus-launcher did not start") }
        guard try waitUntil(timeout: 30, interval: 0.3, { try session.accessibility.programs().contains("plasmashell") }) else {
            throw HarnessError("plasmashell did not join the accessibility bus; programs: \(try session.accessibility.programs())")
        }
    }

    func stop() { root.stop() }
    deinit { stop() }
}

/// iCare's package on the real Plasma 6.3.6 and 6.7.4 on Wayland (`kwin_wayland --virtual`) in the
/// roots: the tray item registered with the watcher and shown by plasmashell (its button in the
/// accessibility tree), the reminder popup with its words and buttons, and what a screenshot gives there.
@Suite(.serialized) struct PlasmaWaylandInRootTests {
    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func theTrayItemAndTheReminderShowOnPlasmaWayland(_ release: DesktopRoot.Release) throws {
        let plasma = try RootPlasmaWayland(release)
        defer { plasma.stop() }
        let session = try #require(plasma.session)
        #expect(try session.serverInformation() == ["Plasma", "KDE", release.plasma, "1.2"])
        _ = try plasma.root.folder("config/icare")
        try "BreakDuration = 10s\n".write(to: plasma.root.work.appendingPathComponent("config/icare/config"), atomically: true, encoding: .utf8)
        try RootPlasmaHelpers.restartDue(session)

        // The tray: icared's item registered with kded6's watcher, and plasmashell's button for it.
        let items = try session.call("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher", "org.freedesktop.DBus.Properties.Get",
                                     ["org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"])
        // icared registers its item from a connection of its own: the item's connection is icared's process.
        func pid(_ name: String) throws -> String {
            let answer = try session.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetConnectionUnixProcessID", [name])
            return String((answer.split(separator: " ").last ?? "").filter(\.isNumber))
        }
        let owners = try DesktopRootSession.strings(items).map { try pid(String($0.prefix { $0 != "/" })) }
        #expect(owners.contains(try pid("org.icare.Reminder")), "icared is not among the watcher's items: \(items)")
        var button: GnomeShellAccessibility.Node?
        _ = try waitUntil(timeout: 20, interval: 0.3) {
            button = try session.accessibility.nodes(of: "plasmashell").first { ["button", "push button"].contains($0.role) && $0.name == "iCare" }
            return button != nil
        }
        #expect(button != nil, "no iCare button in plasmashell's tree on Wayland (Plasma \(release.plasma))")

        // The reminder: a popup with its words and buttons.
        let (popup, seen) = try waitForOne(timeout: 30, interval: 0.3, {
            GnomeShellAccessibility.subtrees(try session.accessibility.nodes(of: "plasmashell")) { $0.role == "notification" }
        }, { $0.root.name == "Time for an eye break" })
        #expect(popup != nil, "no reminder popup on Plasma \(release.plasma) Wayland: \(seen.map(\.root))")
        if let popup {
            let buttons = popup.below.filter { ["button", "push button"].contains($0.role) }.map(\.name)
            #expect(Set(buttons).isSuperset(of: ["Start", "Snooze 5 min", "Skip"]), "\(buttons)")
        }
        #expect(try session.icareProperty("State") == "(<'due'>,)")

        // A screenshot there: spectacle asks KWin (org.kde.KWin.ScreenShot2); say what it gave.
        let png = plasma.root.work.appendingPathComponent("wayland.png").path
        // Bounded inside (`timeout`): 6.7.4's spectacle never returns there, and one killed only outside keeps the pipe open.
        let shot = try session.run(["timeout", "-s", "KILL", "20", "spectacle", "-b", "-n", "-f", "-o", png], timeout: 40)
        let size = (try? FileManager.default.attributesOfItem(atPath: png)[.size] as? Int) ?? nil
        print("Plasma \(release.plasma) Wayland: spectacle exit \(shot.status), file \(size.map { "\($0) bytes" } ?? "none"); \(shot.stderr.suffix(400))")
        if size != nil { _ = try? Subprocess.run(["cp", png, "/tmp/plasma-wayland-\(release).png"]) }
    }
}

enum RootPlasmaHelpers {
    /// As RootPlasma.restartDue, for any root session: icared's state file says a reminder is a second away, then the bus activates it.
    static func restartDue(_ session: DesktopRootSession) throws {
        let dir = try session.root.folder("state/icare", mode: "700")
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000), next = now + 1_000_000
        let file = dir.appendingPathComponent("state")
        try "icare-engine=1\nclock=\(now)\nphase=waiting\nstart=\(next - 1_200_000_000)\nnext=\(next)\npause=none\n"
            .write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.ownerAccountID: DesktopRoot.uid, .groupOwnerAccountID: DesktopRoot.uid,
                                               .posixPermissions: 0o600], ofItemAtPath: file.path)
        _ = try session.icareProperty("State")
    }
}
