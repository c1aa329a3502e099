import Foundation
import Testing
import TestSupport

/// One element of the app's window as the accessibility tree (AT-SPI) tells it.
struct Element: CustomStringConvertible {
    let role: String
    let name: String
    /// The accessible description (the ring's countdown).
    var detail = ""
    let x: Int, y: Int, w: Int, h: Int
    /// A switch's or toggle's state (nil: not checkable).
    var checked: Bool? = nil
    var sensitive = true
    var focusable = false
    var focused = false
    /// A spin button's value (nil: none).
    var value: Double? = nil
    var description: String { "\(role) '\(name)'" + (detail.isEmpty ? "" : " (\(detail))") + (checked.map { $0 ? " on" : " off" } ?? "") + (value.map { " \($0)" } ?? "") }
}

/// The real app (`icare`) on a headless display against the real icared on a
/// private bus: its own Xvfb (`-displayfd`), its own accessibility bus
/// (at-spi-bus-launcher on the private session bus, with the registry woken
/// before the app starts, so that GTK registers the app with it), private
/// XDG folders. Every child leads a process group of its own (Foundation's
/// Process spawns with POSIX_SPAWN_SETPGROUP), so `stop` ends each group.
/// Anything that does not start throws: the test fails.
final class AppRig: @unchecked Sendable {
    let service: ServiceHarness
    let work: URL
    private(set) var display = ""
    private var groups: [Process] = []
    private(set) var app: Process?
    /// More environment for the app (a locale).
    let appEnvironment: [String: String]
    /// A headless sway instead of Xvfb: the app on Wayland.
    private(set) var sway: HeadlessSway?

    /// `startService: false` leaves icared off (the app then activates it through `bus`, or says it is absent).
    /// `sharedEnvironment` goes to icared, the app and every client (a faked clock for them all).
    /// `gnome` makes the session GNOME's, as icared tells which desktop is in use (docs/desktops.md):
    /// `XDG_CURRENT_DESKTOP=GNOME` and a program owning GNOME Shell's name (python3-dbusmock), so that
    /// GNOME's keys in dconf act. `firstStart`: a home iCare never ran in (ServiceHarness).
    init(config: String = AppRig.config, serviceArguments: [String]? = nil, startService: Bool = true,
         bus: PrivateBus? = nil, appEnvironment: [String: String] = [:], sharedEnvironment: [String: String] = [:],
         startApp: Bool = true, wayland: Bool = false, gnome: Bool = false, firstStart: Bool = false) throws {
        service = try ServiceHarness(config: config, environment: sharedEnvironment.merging(gnome ? ["XDG_CURRENT_DESKTOP": "GNOME"] : [:]) { $1 },
                                     bus: bus, start: false, firstStart: firstStart)
        work = service.home.appendingPathComponent("desktop")
        self.appEnvironment = appEnvironment
        do {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            if gnome {
                try startGroup(["/usr/bin/python3", "-m", "dbusmock", "org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell"], log: "gnome-shell-name.log")
                guard try waitForName("org.gnome.Shell") else { throw HarnessError("dbusmock did not take org.gnome.Shell: \(log("gnome-shell-name.log"))") }
            }
            if startService { try service.start(arguments: serviceArguments ?? ["--log-stderr", "--debug"]) }
            if wayland { sway = try HeadlessSway() } else { try startDisplay() }
            try startAccessibility()
            if startApp { try launchApp() }
        } catch {
            stop()
            throw error
        }
    }

    static let config = "BreakDuration = 10\nSnoozeDuration = 300\nSound = false\n"

    var environment: [String: String] {
        var env = service.environment
        if let sway {
            env["WAYLAND_DISPLAY"] = sway.socket
            env["GDK_BACKEND"] = "wayland"
        } else {
            env["DISPLAY"] = display
            env["GDK_BACKEND"] = "x11"
        }
        // No portal, no dconf settings of the host: GTK's defaults.
        env["GSETTINGS_BACKEND"] = "memory"
        return env
    }

    @discardableResult
    func startGroup(_ arguments: [String], log: String, environment extra: [String: String] = [:]) throws -> Process {
        var env = ProcessInfo.processInfo.environment.merging(Subprocess.neutralLocale.merging(environment) { $1 }) { $1 }
        if sway == nil { env.removeValue(forKey: "WAYLAND_DISPLAY") } else { env.removeValue(forKey: "DISPLAY") }
        env.removeValue(forKey: "GTK_A11Y")  // GTK's accessibility on (a host may turn it off)
        for (k, v) in extra { env[k] = v }
        let p = try Subprocess.startLogged(arguments, log: work.appendingPathComponent(log).path, environment: env)
        groups.append(p)
        return p
    }

    func log(_ name: String) -> String { (try? String(contentsOf: work.appendingPathComponent(name), encoding: .utf8)) ?? "" }

    private func startDisplay() throws {
        let xvfb = try Xvfb(width: 1024, height: 900)
        groups.append(xvfb.process)
        display = xvfb.display
    }

    private func startAccessibility() throws {
        try startGroup(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], log: "at-spi.log")
        guard try waitForName("org.a11y.Bus") else { throw HarnessError("at-spi-bus-launcher did not start: \(log("at-spi.log"))") }
        // Reading the desktop starts the registry (bus activation on the accessibility bus).
        let r = try atspi(["count"])
        guard r.status == 0 else { throw HarnessError("the accessibility registry did not answer: \(r)") }
    }

    /// Starts `icare` (another instance when one runs: it hands over and exits).
    @discardableResult
    func launchApp(log: String = "app.log") throws -> Process {
        let p = try startGroup([try Products.path("icare")], log: log, environment: appEnvironment)
        if app == nil { app = p }
        return p
    }

    /// Ends the app (its process group) and starts it again: a second start in the same home.
    func restartApp() throws {
        if let app {
            Subprocess.killGroup(app)
            groups.removeAll { $0 === app }
            self.app = nil
        }
        _ = try waitUntil(timeout: 10, interval: 0.1) { try !hasOwner("org.icare.Reminder.Window") }
        try launchApp(log: "app-again.log")
    }

    func waitForName(_ name: String) throws -> Bool {
        try waitUntil(timeout: 10, interval: 0.05) { try hasOwner(name) }
    }

    func hasOwner(_ name: String) throws -> Bool {
        try service.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                            "NameHasOwner", "s", name]).stdout == "b true\n"
    }

    // MARK: the accessibility tree

    func atspi(_ arguments: [String]) throws -> ProcessResult {
        let script = work.appendingPathComponent("atspi-app.py").path
        if !FileManager.default.fileExists(atPath: script) { try AppRig.script.write(toFile: script, atomically: true, encoding: .utf8) }
        return try Subprocess.run(["/usr/bin/python3", script] + arguments, environment: environment, timeout: 60)
    }

    /// The app's windows: for each, its elements (visible ones only), in tree order.
    func windows() throws -> [[Element]] {
        let r = try atspi(["tree"])
        guard r.status == 0, let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[[String: Any]]] else {
            throw HarnessError("reading the accessibility tree failed: \(r)")
        }
        return json.map { window in
            window.map { e in
                func int(_ k: String) -> Int { (e[k] as? NSNumber)?.intValue ?? -1 }
                return Element(role: e["role"] as? String ?? "", name: e["name"] as? String ?? "", detail: e["description"] as? String ?? "", x: int("x"), y: int("y"), w: int("w"), h: int("h"),
                               checked: e["checked"] as? Bool, sensitive: e["sensitive"] as? Bool ?? true,
                               focusable: e["focusable"] as? Bool ?? false, focused: e["focused"] as? Bool ?? false, value: (e["value"] as? NSNumber)?.doubleValue)
            }
        }
    }

    /// The main window's elements (the first window named iCare).
    func home() throws -> [Element] { try windows().first { $0.first?.name == "iCare" } ?? [] }

    /// The texts (labels) of the main window.
    func texts() throws -> [String] { try home().filter { $0.role == "label" }.map(\.name) }

    /// icared with the rig's private folders, as a service file's `Exec=` must start it (the bus
    /// starts services with its own environment; as dbus/org.icare.Reminder.service.in does), inside its
    /// unit's sandbox, as systemd starts it on such a bus (`SystemdService=`).
    func icaredCommand() throws -> String {
        let env = service.environment.filter { $0.key.hasPrefix("XDG_") || $0.key == "HOME" }.map { "\($0.key)=\($0.value)" }.sorted()
        // Each word quoted as a shell (and dbus-daemon's Exec=) reads it: a clone's path may have a space.
        return (["/usr/bin/env"] + env + (try service.asInstalled([try Products.path("icared")]))).map(\.shellQuoted).joined(separator: " ")
    }

    /// The app as a service file's `Exec=` must start it: with the session's display and folders, as a
    /// desktop hands them to its bus (dbus-update-activation-environment), and GTK's accessibility on.
    func appCommand() throws -> String {
        let env = environment.merging(Subprocess.neutralLocale.merging(appEnvironment) { $1 }) { $1 }
            .filter { !$0.value.isEmpty && $0.key != "DBUS_SESSION_BUS_ADDRESS" }.map { "\($0.key)=\($0.value)" }.sorted()
        return (["/usr/bin/env", "-u", "GTK_A11Y"] + env + [try Products.path("icare")]).map(\.shellQuoted).joined(separator: " ")
    }

    /// Waits for the home view of an icared the bus started, checks the bus did, and ends that
    /// icared (the bus's child, not the rig's).
    func expectActivatedIcaredThenEndIt() throws {
        try waitForHome("the home view of the activated service") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        #expect(try service.nameHasOwner(), "the bus started icared")
        let activated = try service.ownerProcess(of: "org.icare.Reminder")
        #expect(activated != nil, "the bus names the activated icared's process")
        if let activated { kill(activated, SIGKILL) }
    }

    /// The names of the buttons showing in the main window.
    func buttons() throws -> [String] { try home().filter { $0.role == "push button" }.map(\.name) }

    /// Waits (bounded) until the main window satisfies `condition`; throws with what it showed.
    @discardableResult
    func waitForHome(timeout: TimeInterval = 10, _ what: String, _ condition: ([Element]) -> Bool) throws -> [Element] {
        var seen: [Element] = []
        let ok = try waitUntil(timeout: timeout, interval: 0.1) {
            seen = try home()
            return condition(seen)
        }
        guard ok else { throw HarnessError("the window never showed \(what); it showed \(seen)\napp:\n\(log("app.log"))\nicared:\n\(service.log)") }
        return seen
    }

    /// Waits for a label with exactly `text`.
    @discardableResult
    func waitForText(_ text: String, timeout: TimeInterval = 10) throws -> [Element] {
        try waitForHome(timeout: timeout, "'\(text)'") { $0.contains { $0.role == "label" && $0.name == text } }
    }

    /// Waits (bounded) until the home view says `words` in its sentence and as the ring's accessible name: two
    /// widgets updated one after the other, so one read of the accessibility tree can fall between them.
    @discardableResult
    func waitForStateWords(_ words: String, timeout: TimeInterval = 10) throws -> [Element] {
        try waitForHome(timeout: timeout, "'\(words)' in words and on the ring") { home in
            home.contains { $0.role == "label" && $0.name == words } && home.contains { $0.role == "image" && $0.name == words }
        }
    }

    /// The preferences window's elements, in any language (the window that is not the main one; empty while it is closed).
    func preferences() throws -> [Element] { try windows().first { $0.first?.name != "iCare" } ?? [] }

    /// Waits (bounded) until the preferences window satisfies `condition`.
    @discardableResult
    func waitForPreferences(timeout: TimeInterval = 10, _ what: String, _ condition: ([Element]) -> Bool) throws -> [Element] {
        var seen: [Element] = []
        let ok = try waitUntil(timeout: timeout, interval: 0.1) {
            seen = try preferences()
            return condition(seen)
        }
        guard ok else { throw HarnessError("the preferences never showed \(what); they showed \(seen)\napp:\n\(log("app.log"))") }
        return seen
    }

    /// Sets a spin button's value through the accessibility tree (its Value interface).
    func setValue(_ name: String, _ value: Double) throws {
        let r = try atspi(["value", "spin button", name, String(value)])
        guard r.status == 0 else { throw HarnessError("setting '\(name)' failed: \(r)") }
    }

    /// Presses the button named `name` through its accessible action ("click"), as a screen reader does.
    func press(_ name: String, role: String = "push button", within: String? = nil) throws {
        let r = try atspi(["press", role, name] + (within.map { [$0] } ?? []))
        guard r.status == 0 else { throw HarnessError("pressing '\(name)' failed: \(r)\non screen: \((try? home()) ?? [])") }
    }

    /// Replaces the dconf user database with one compiled from `keyfile` (the real `dconf compile`,
    /// put in place by rename as dconf-service does); icared follows the file with inotify.
    func writeDconf(_ keyfile: String) throws {
        let keyfiles = work.appendingPathComponent("dconf-keyfiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: keyfiles, withIntermediateDirectories: true)
        try keyfile.write(to: keyfiles.appendingPathComponent("keys"), atomically: true, encoding: .utf8)
        let folder = (service.environment["XDG_CONFIG_HOME"] ?? "") + "/dconf"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let staged = folder + "/user.new"
        let r = try Subprocess.run(["dconf", "compile", staged, keyfiles.path])
        guard r.status == 0 else { throw HarnessError("dconf compile failed: \(r)") }
        guard rename(staged, folder + "/user") == 0 else { throw HarnessError("rename failed: \(errno)") }
    }

    /// The title of the X window that has the input focus (Xvfb: `xdotool getwindowfocus`).
    func focusedWindowName() throws -> String {
        let r = try Subprocess.run(["xdotool", "getwindowfocus", "getwindowname"], environment: environment)
        guard r.status == 0 else { throw HarnessError("xdotool getwindowfocus failed: \(r)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A screenshot of the main window (ImageMagick's `import` of its X window) as PPM at `path`.
    func windowShot(to path: String) throws -> Screenshot {
        let found = try Subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^iCare$"], environment: environment)
        guard found.status == 0, let id = found.stdout.split(separator: "\n").first else { throw HarnessError("no iCare window: \(found)") }
        let r = try Subprocess.run(["import", "-window", String(id), "-depth", "8", "ppm:" + path], environment: environment)
        guard r.status == 0 else { throw HarnessError("import failed: \(r)") }
        return try Screenshot(file: path)
    }

    /// Presses keys on sway's virtual keyboard, in one go (wtype -k …: real input for the compositor
    /// and the app; one virtual keyboard for the whole sequence, 50 ms between keys). A lone Shift
    /// goes first: on a loaded machine the first key of a new virtual keyboard was often lost (one Tab
    /// fewer, or no Return, measured in the keyboard test's tries), and a Shift pressed alone does nothing.
    func keys(_ names: [String]) throws {
        guard let sway else { throw HarnessError("keys are typed on sway only") }
        let r = try Subprocess.run(["wtype", "-d", "50"] + (["Shift_L"] + names).flatMap { ["-k", $0] },
                                   environment: ["WAYLAND_DISPLAY": sway.socket], timeout: 20)
        guard r.status == 0 else { throw HarnessError("wtype \(names) failed: \(r)") }
    }

    func stop() {
        service.kill9()
        for p in groups.reversed() { Subprocess.killGroup(p) }
        groups.removeAll()
        sway?.stop()
        service.stop()
    }

    deinit { stop() }
}
