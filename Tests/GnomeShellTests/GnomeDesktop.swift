import Foundation
import TestSupport

/// The suite's desktop: iCare installed the way the package installs it
/// (`make install` into a temporary prefix: the icon `org.icare.Reminder` in
/// the hicolor theme, the desktop entry, the activation file), and one real
/// headless GNOME Shell 43 with that prefix's `share` on its XDG_DATA_DIRS.
/// Made once for the suite (the shell takes seconds to start) and ended when
/// the test process exits; each test starts the installed icared afresh.
final class GnomeDesktop: @unchecked Sendable {
    let shell: HeadlessGnomeShell
    let installed: InstalledICare

    private static let made: (desktop: GnomeDesktop?, error: String) = {
        do {
            let desktop = try GnomeDesktop()
            atexit { GnomeDesktop.made.desktop?.stop() }
            return (desktop, "")
        } catch {
            return (nil, "\(error)")
        }
    }()

    /// The suite's desktop; throws (the test fails) when it could not be made.
    static func shared() throws -> GnomeDesktop {
        guard let desktop = made.desktop else { throw HarnessError("the GNOME desktop did not start: \(made.error)") }
        return desktop
    }

    private init() throws {
        installed = try InstalledICare()
        for file in ["/share/applications/org.icare.Reminder.desktop", "/share/dbus-1/services/org.icare.Reminder.service"] {
            guard FileManager.default.fileExists(atPath: installed.prefix + file) else {
                installed.remove()
                throw HarnessError("make install wrote no \(file)")
            }
        }
        do {
            shell = try HeadlessGnomeShell(prefix: installed.prefix)
        } catch {
            installed.remove()
            throw error
        }
        shell.service.program = installed.icared
    }

    var service: ServiceHarness { shell.service }

    /// Starts the installed icared afresh: `config` in its config file, today's history empty,
    /// intervals `timeScale` times faster (`--time-scale`), and waits until its item is in the top bar's watcher.
    func startIcared(config: String, timeScale: Int = 90) throws {
        stopIcared()
        try? FileManager.default.removeItem(atPath: service.stateDirectory)
        // An empty history, but one iCare has kept before: no first-start notice in the Shell's way.
        try FileManager.default.createDirectory(atPath: service.stateDirectory + "/history", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(atPath: service.configDirectory, withIntermediateDirectories: true)
        try config.write(toFile: service.configDirectory + "/config", atomically: true, encoding: .utf8)
        try service.start(arguments: ["--log-stderr", "--debug", "--time-scale", String(timeScale)])
        guard try waitUntil(timeout: 10, interval: 0.1, { try registeredItems().count == 1 }) else {
            throw HarnessError("the AppIndicator extension lists \(try registeredItems()), not icared's item\nicared:\n\(service.log)")
        }
    }

    /// Ends icared (SIGTERM, as a session's end does) and waits until its item is gone from the watcher.
    func stopIcared() {
        if service.process != nil { _ = try? service.signal(SIGTERM) }
        _ = waitUntil(timeout: 5, interval: 0.1) { (try? registeredItems().isEmpty) ?? true }
    }

    /// The items the AppIndicator extension's watcher lists.
    func registeredItems() throws -> [String] {
        let r = try service.busctl(["get-property", "--json=short", "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher",
                                    "org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"])
        guard r.status == 0, let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] else {
            throw HarnessError("RegisteredStatusNotifierItems: \(r)")
        }
        return json["data"] as? [String] ?? []
    }

    /// Waits (bounded) until icared's `State` is `state`, moving the pointer a little meanwhile: a person at
    /// the computer. (Idle for a break's length, icared counts it as a break taken away from the screen, and
    /// GNOME hides banners only after user activity.)
    func waitForState(_ state: String, timeout: TimeInterval = 20) throws {
        // A small motion every second, and none once the state is reached: a banner that shows then stays
        // until the next input (GNOME hides it only after activity while it was shown). With a motion every
        // 2 s, a loaded machine once saw icared count the person idle for the break's length (a break taken
        // away) and move the reminder past the wait.
        var lastMotion = Date.distantPast
        let reached = try waitUntil(timeout: timeout, interval: 0.2) {
            if try service.string("State") == state { return true }
            if Date().timeIntervalSince(lastMotion) > 1 {
                try shell.pointer().wiggle()
                lastMotion = Date()
            }
            return false
        }
        guard reached else { throw HarnessError("icared stayed \(try service.string("State")), not \(state)\nicared:\n\(service.log)") }
    }

    /// Waits (bounded) for exactly one banner that satisfies `match`.
    func banner(timeout: TimeInterval = 10, _ match: (GnomeShellAccessibility.Banner) -> Bool) throws -> GnomeShellAccessibility.Banner {
        let (found, seen) = try waitForOne(timeout: timeout, interval: 0.2, { try shell.accessibility.banners() }, match)
        guard let found else { throw HarnessError("on screen: \(seen)\nicared:\n\(service.log)") }
        return found
    }

    /// The reminder banner with the pointer over it, so that its buttons show.
    func hoveredReminder() throws -> GnomeShellAccessibility.Banner {
        let first = try banner { $0.texts.contains("Time for an eye break") }
        try shell.pointer().move(x: first.box.x + first.box.w / 2, y: first.box.y + 20)
        return try banner(timeout: 5) { $0.texts.contains("Time for an eye break") && !$0.named.isEmpty }
    }

    func stop() {
        shell.stop()
        installed.remove()
    }
}
