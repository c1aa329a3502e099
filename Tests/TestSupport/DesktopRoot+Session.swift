import Foundation

/// A desktop session's plumbing inside a `DesktopRoot`: HOME and the XDG
/// folders in the root's work folder (owned by the ordinary user,
/// `XDG_RUNTIME_DIR` 0700), an empty private system bus and a private session
/// bus that activates only the root's service files the test names (iCare's
/// own, from the installed .deb, among them). Both `dbus-daemon`s run inside,
/// as the user, in the session's environment, which what they activate
/// inherits; their sockets are in the work folder, so the host reaches them
/// too (the session bus lets any user in).
public final class DesktopRootSession: @unchecked Sendable {
    public let root: DesktopRoot
    public let directory: URL
    private var variables: [String: String]

    /// `activatable`: names whose service files in the root's /usr/share/dbus-1/services the bus may start.
    /// `variables`: the desktop's own (XDG_CURRENT_DESKTOP, DISPLAY, …), laid over HOME and the XDG folders.
    /// `firstStart`: a home iCare never ran in (no history folder), for its first-start notice.
    public init(_ root: DesktopRoot, activatable: [String], variables: [String: String], firstStart: Bool = false) throws {
        self.root = root
        directory = root.work
        for name in ["home", "home/.local/state", "config", "data", "cache", "services", "logs"] { _ = try root.folder(name) }
        _ = try root.folder("runtime", mode: "700")
        // iCare has run in this home before (its history folder is there, and the app's welcome-seen): no
        // first-start notice or welcome in the way.
        for name in ["home/.local/state/icare"] + (firstStart ? [] : ["home/.local/state/icare/history", "home/.local/state/icare-app"]) {
            _ = try root.folder(name, mode: "700")
        }
        if !firstStart {
            let seen = directory.appendingPathComponent("home/.local/state/icare-app/welcome-seen").path
            let r = try root.run(["install", "-m", "600", "/dev/null", seen], environment: [:])
            guard r.status == 0 else { throw HarnessError("touch \(seen) inside the \(root.release) root: \(r)") }
        }
        let services = directory.appendingPathComponent("services").path
        for name in activatable where name != "org.icare.Reminder" {
            // Resolved inside the root, by its dbus-daemon.
            try FileManager.default.createSymbolicLink(atPath: "\(services)/\(name).service",
                                                       withDestinationPath: "/usr/share/dbus-1/services/\(name).service")
        }
        if activatable.contains("org.icare.Reminder") {
            // The package's activation file names SystemdService=icared.service: on a systemd desktop the
            // bus hands the call to the unit. Here the bus starts the unit's icared in its sandbox itself.
            let exec = try root.icaredAsInstalled([]).map(\.shellQuoted).joined(separator: " ")
            try "[D-BUS Service]\nName=org.icare.Reminder\nExec=\(exec)\n"
                .write(toFile: "\(services)/org.icare.Reminder.service", atomically: true, encoding: .utf8)
        }
        self.variables = [
            "HOME": directory.appendingPathComponent("home").path,
            "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
            "XDG_DATA_HOME": directory.appendingPathComponent("data").path,
            "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
            // Where icared's unit puts it (Environment=XDG_STATE_HOME=%h/.local/state), whatever the session says.
            "XDG_STATE_HOME": directory.appendingPathComponent("home/.local/state").path,
            "XDG_RUNTIME_DIR": directory.appendingPathComponent("runtime").path,
            "XDG_DATA_DIRS": "/usr/local/share:/usr/share",
            "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=" + directory.appendingPathComponent("system-bus").path,
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + directory.appendingPathComponent("session-bus").path,
        ].merging(variables) { $1 }
        try startBus("system", services: nil)
        try startBus("session", services: services)
    }

    /// The session's environment, for programs inside.
    public var environment: [String: String] { variables }

    /// Sets a variable for what starts from now on (the bus's activations keep what it started with).
    public func set(_ name: String, _ value: String) { variables[name] = value }

    private func startBus(_ type: String, services: String?) throws {
        let socket = directory.appendingPathComponent("\(type)-bus").path
        let config = PrivateBus.config(type: type, listen: "unix:path=\(socket)", anyUser: true, serviceDirectory: services)
        let file = directory.appendingPathComponent("\(type)-bus.conf")
        try config.write(to: file, atomically: true, encoding: .utf8)
        try root.start(["dbus-daemon", "--config-file=\(file.path)", "--nofork", "--nopidfile"], log: "logs/\(type)-bus.log",
                       environment: variables)
        guard waitUntil(timeout: 10, interval: 0.02, { FileManager.default.fileExists(atPath: socket) }) else {
            throw HarnessError("the \(type) bus did not start in the \(root.release) root: \(root.log("logs/\(type)-bus.log"))")
        }
    }

    /// Starts a program of the session inside, its output in `logs/NAME`.
    @discardableResult
    public func start(_ arguments: [String], log: String, environment extra: [String: String] = [:]) throws -> Process {
        try root.start(arguments, log: "logs/" + log, environment: variables.merging(extra) { $1 })
    }

    /// Starts the package's icared inside as installed (in its unit's sandbox), in the session's environment.
    @discardableResult
    public func startIcared(_ arguments: [String], log: String) throws -> Process {
        try start(try root.icaredAsInstalled(arguments), log: log)
    }

    /// Runs a client inside, on the session's buses.
    @discardableResult
    public func run(_ arguments: [String], timeout: TimeInterval = 30) throws -> ProcessResult {
        try root.run(arguments, environment: variables, timeout: timeout)
    }

    public func log(_ name: String) -> String { root.log("logs/" + name) }

    /// `gdbus call` on the session bus; throws with its words when the call fails.
    public func call(_ destination: String, _ path: String, _ method: String, _ arguments: [String] = [],
                     timeout: TimeInterval = 30) throws -> String {
        let r = try run(["gdbus", "call", "--session", "--dest", destination, "--object-path", path, "--method", method] + arguments,
                        timeout: timeout)
        guard r.status == 0 else { throw HarnessError("\(method) on \(destination): \(r)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func nameHasOwner(_ name: String) throws -> Bool {
        try call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", [name]) == "(true,)"
    }

    public func waitForName(_ name: String, timeout: TimeInterval = 30) throws -> Bool {
        try waitUntil(timeout: timeout, interval: 0.1) { try nameHasOwner(name) }
    }

    /// The notification server's `GetServerInformation`: name, vendor, version, spec version.
    public func serverInformation() throws -> [String] {
        let answer = try call("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                              "org.freedesktop.Notifications.GetServerInformation")
        return Self.strings(answer)
    }

    /// The quoted strings of a gdbus answer, in order: `('gnome-shell', 'GNOME', '48.7', '1.2')`.
    public static func strings(_ answer: String) -> [String] {
        var found: [String] = [], current = "", inside = false
        for c in answer {
            if c == "'" {
                if inside { found.append(current); current = "" }
                inside.toggle()
            } else if inside {
                current.append(c)
            }
        }
        return found
    }

    /// A property of iCare's service (activating it when it is not running), as gdbus prints it.
    public func icareProperty(_ name: String) throws -> String {
        try call("org.icare.Reminder", "/org/icare/Reminder", "org.freedesktop.DBus.Properties.Get", ["org.icare.Reminder", name])
    }

    /// The accessibility tree, read inside by the root's own python3 and libatspi.
    public var accessibility: GnomeShellAccessibility {
        GnomeShellAccessibility(environment: root.inside(variables), launcher: root.asUser)
    }
}
