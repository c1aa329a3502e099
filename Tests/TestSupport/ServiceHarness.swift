import Foundation

/// Where `swift build` put the products (icared, icarectl) that tests run.
public enum Products {
    /// The bin directory of this build: the test bundle lives in it.
    public static var binDirectory: String {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        // On Linux the runner is `<bin>/icarePackageTests.xctest`; walk up until icared is beside us.
        for _ in 0..<4 {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("icared").path) { return dir.path }
            dir = dir.deletingLastPathComponent()
        }
        return exe.deletingLastPathComponent().path
    }

    /// The products a sanitizer build of the service gives in place of this build's:
    /// scripts/test runs the whole suite with AddressSanitizer's icared and icarectl
    /// (docs/hostile.md, "The sanitizers").
    static let sanitizedProducts: Set<String> = ["icared", "icarectl"]

    /// The full path of a built product; throws when it was not built. With
    /// ICARE_SANITIZED_BIN set, icared and icarectl are that folder's.
    public static func path(_ name: String) throws -> String {
        var dir = binDirectory
        if sanitizedProducts.contains(name), let sanitized = ProcessInfo.processInfo.environment["ICARE_SANITIZED_BIN"], !sanitized.isEmpty {
            dir = sanitized
        }
        let p = dir + "/" + name
        guard FileManager.default.isExecutableFile(atPath: p) else {
            throw HarnessError("\(name) is not built in \(dir); run 'swift build' before 'swift test'.")
        }
        return p
    }
}

/// A real `icared` on a private bus with its own XDG folders.
public final class ServiceHarness: @unchecked Sendable {
    public let bus: PrivateBus
    public let home: URL
    public private(set) var process: Process?
    public let logPath: String
    public let extraEnvironment: [String: String]
    /// A program and its arguments that start icared (e.g. `setpriv …`); empty: icared itself.
    public var launcher: [String] = []
    /// The icared to run (e.g. `InstalledICare.icared`); nil: this build's.
    public var program: String?
    /// icared runs as installed by default: inside the sandbox of its systemd unit, read from `unitFile`
    /// by scripts/unit-sandbox (docs/as-installed.md). True: a bare process, the exception a test asks for.
    public var bare = false
    /// The unit file whose sandbox icared gets; nil: the one installed beside `program`
    /// (`<prefix>/lib/systemd/user/icared.service`), or for this build's icared systemd/icared.service.in,
    /// which `make install` installs with only its paths filled in.
    public var unitFile: String?
    /// Folders under /tmp that stand for places in the person's home (a rig's KDE Connect folder): the
    /// unit's private /tmp would hide them; HOME, the XDG folders and the bus are kept without asking.
    public var keep: [String] = []

    /// The environment clients and the service share (in the neutral
    /// locale unless the test's `environment` names another).
    public var environment: [String: String] {
        var env = Subprocess.neutralLocale.merging(bus.environment) { $1 }
        env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        // Where the unit puts it (Environment=XDG_STATE_HOME=%h/.local/state), bare or not.
        env["XDG_STATE_HOME"] = home.appendingPathComponent(".local/state").path
        env["XDG_RUNTIME_DIR"] = home.appendingPathComponent("runtime").path
        env["HOME"] = home.path
        // Not the Wayland session the tests may run in (a test gives its own compositor).
        env["WAYLAND_DISPLAY"] = ""
        for (k, v) in extraEnvironment { env[k] = v }
        return env
    }

    public var configDirectory: String { home.appendingPathComponent("config/icare").path }
    public var stateDirectory: String { home.appendingPathComponent(".local/state/icare").path }
    /// The app's own state folder (`welcome-seen`), apart from icared's.
    public var appStateDirectory: String { home.appendingPathComponent(".local/state/icare-app").path }

    /// Starts a bus and (unless `start` is false) the service; `config` is written to the config file first.
    /// `home` (default: a new temporary folder) holds the XDG folders and is removed by `stop`; two
    /// harnesses on one `home` (two logins of one person) each write their own log, `logName`.
    /// Unless `firstStart`, iCare has run in it before (its history folder is there, and the app's
    /// `welcome-seen`): no first-start notice, and the app opens on its home view.
    public init(config: String? = nil, environment: [String: String] = [:], bus: PrivateBus? = nil, start: Bool = true,
                home: URL? = nil, firstStart: Bool = false, logName: String = "icared.log") throws {
        self.bus = try bus ?? PrivateBus()
        self.home = home ?? FileManager.default.temporaryDirectory.appendingPathComponent("icare-home-\(UUID().uuidString)")
        extraEnvironment = environment
        logPath = self.home.appendingPathComponent(logName).path
        try FileManager.default.createDirectory(at: self.home.appendingPathComponent("runtime"), withIntermediateDirectories: true)
        if !firstStart {
            for folder in [stateDirectory, stateDirectory + "/history", appStateDirectory] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            }
            guard FileManager.default.createFile(atPath: appStateDirectory + "/welcome-seen", contents: Data(), attributes: [.posixPermissions: 0o600]) else {
                throw HarnessError("cannot write \(appStateDirectory)/welcome-seen")
            }
        }
        if let config {
            try FileManager.default.createDirectory(atPath: configDirectory, withIntermediateDirectories: true)
            try config.write(toFile: configDirectory + "/config", atomically: true, encoding: .utf8)
        }
        if start { try self.start() }
    }

    /// Starts icared and waits (bounded) until it owns its name.
    public func start(arguments: [String] = ["--log-stderr", "--debug"], timeout: TimeInterval = 10) throws {
        // Each start begins a fresh log.
        guard FileManager.default.createFile(atPath: logPath, contents: nil) else { throw HarnessError("cannot create \(logPath)") }
        let logHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        logHandle.seekToEndOfFile()
        let p = Process()
        let icared = try program ?? Products.path("icared")
        let command = try asInstalled(launcher + [icared] + arguments)
        p.executableURL = URL(fileURLWithPath: command[0])
        p.arguments = Array(command.dropFirst())
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "WATCHDOG_USEC")
        for (k, v) in environment { env[k] = v }
        // With a sanitizer's icared (docs/hostile.md, "The sanitizers"), icared is checked for leaks, the test runner not.
        if let options = env["ICARE_ICARED_ASAN_OPTIONS"] { env["ASAN_OPTIONS"] = options }
        p.environment = env
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = logHandle
        p.standardError = logHandle
        try p.run()
        process = p
        let owned = try waitUntil(timeout: timeout) { try self.nameHasOwner() || !p.isRunning }
        guard owned, p.isRunning else { throw HarnessError("icared did not take its name; log:\n\(log)") }
    }

    public static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// scripts/unit-sandbox: runs a program inside a unit file's sandbox, without systemd.
    public static let unitSandbox = repo.appendingPathComponent("scripts/unit-sandbox").path
    /// The unit file `make install` installs, with only its paths filled in.
    public static let unitTemplate = repo.appendingPathComponent("systemd/icared.service.in").path

    /// `command` (icared and its arguments) as this harness starts it: inside the unit's sandbox unless `bare`.
    /// Also for a bus's `Exec=` line, where systemd would start the unit (`SystemdService=`).
    public func asInstalled(_ command: [String]) throws -> [String] {
        guard !bare else { return command }
        return [Self.unitSandbox, try unitFile ?? installedUnit() ?? Self.unitTemplate] + keep.flatMap { ["--keep", $0] } + ["--"] + command
    }

    /// The unit installed with `program` (an installed prefix's icared); nil for this build's.
    func installedUnit() throws -> String? {
        guard let program else { return nil }
        let prefix = URL(fileURLWithPath: program).deletingLastPathComponent().deletingLastPathComponent()
        let unit = prefix.appendingPathComponent("lib/systemd/user/icared.service").path
        return FileManager.default.fileExists(atPath: unit) ? unit : nil
    }

    /// Whether org.icare.Reminder has an owner on the bus.
    public func nameHasOwner() throws -> Bool {
        let r = try busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s", "org.icare.Reminder"])
        return r.stdout == "b true\n"
    }

    /// The pid of the process owning `name` on this bus, as the bus says
    /// (`GetConnectionUnixProcessID`); nil when nobody owns it. For a program
    /// the bus started (D-Bus activation) or a desktop did: not the test's child.
    public func ownerProcess(of name: String) throws -> pid_t? {
        let r = try busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                            "GetConnectionUnixProcessID", "s", name])
        guard r.status == 0 else { return nil }
        return pid_t(r.stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
    }

    /// The unique name of icared's connection that serves the status item
    /// (`/StatusNotifierItem`), or nil when it shows none. The item lives on a
    /// connection of its own and owns no well-known name (Sources/StatusItem).
    public func statusItemOwner() throws -> String? {
        guard let pid = process?.processIdentifier else { throw HarnessError("icared is not running") }
        let list = try busctl(["list", "--json=short", "--no-pager"])
        guard list.status == 0, let rows = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] else {
            throw HarnessError("busctl list: \(list)")
        }
        let mine = rows.filter { ($0["pid"] as? NSNumber)?.int32Value == pid }.compactMap { $0["name"] as? String }
            .filter { $0.hasPrefix(":") }
        return try mine.first { name in
            try busctl(["introspect", "--xml-interface", name, "/StatusNotifierItem"]).stdout.contains("org.kde.StatusNotifierItem")
        }
    }

    /// Runs `busctl --user ARGS` against this bus.
    @discardableResult
    public func busctl(_ args: [String]) throws -> ProcessResult {
        try Subprocess.run(["busctl", "--user"] + args, environment: environment)
    }

    /// Calls a method of org.icare.Reminder with busctl.
    @discardableResult
    public func call(_ method: String, _ args: String...) throws -> ProcessResult {
        try busctl(["call", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", method] + args)
    }

    /// Reads a property with busctl; returns busctl's text (e.g. `s "waiting"`).
    public func property(_ name: String) throws -> String {
        try busctl(["get-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", name])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A `t` or `u` property as a number.
    public func number(_ name: String) throws -> UInt64 {
        let text = try property(name)
        guard let v = UInt64(text.split(separator: " ").last ?? "") else { throw HarnessError("\(name) is \(text)") }
        return v
    }

    /// A `s` property's string.
    public func string(_ name: String) throws -> String {
        let text = try property(name)
        guard text.hasPrefix("s \"") else { throw HarnessError("\(name) is \(text)") }
        return String(text.dropFirst(3).dropLast())
    }

    /// The service's log so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Kills the service (SIGKILL: a crash) and waits for it.
    public func kill9() {
        if let p = process { Subprocess.kill9(p) }
        process = nil
    }

    /// Sends a signal and waits (bounded) for the exit status.
    public func signal(_ signo: Int32, timeout: TimeInterval = 5) throws -> Int32 {
        guard let p = process else { throw HarnessError("not running") }
        kill(p.processIdentifier, signo)
        guard waitUntil(timeout: timeout, { !p.isRunning }) else {
            Subprocess.kill9(p)
            throw HarnessError("icared did not exit after signal \(signo)")
        }
        process = nil
        return p.terminationStatus
    }

    public func stop() {
        kill9()
        bus.stop()
        try? FileManager.default.removeItem(at: home)
    }

    deinit { stop() }
}

/// Watches a bus with `busctl monitor` and collects what it prints.
public final class BusMonitor: @unchecked Sendable {
    private let output: Collected

    /// Starts `busctl monitor` and waits (bounded) until it sees traffic that `provoke` causes.
    public init(environment: [String: String], match: [String] = ["org.icare.Reminder"], provoke: () throws -> Void) throws {
        output = try Collected(["busctl", "--user", "monitor", "--json=short"] + match, environment: environment)
        // busctl subscribes asynchronously: provoke traffic until it shows up.
        let seen = try waitUntil(timeout: 10, interval: 0.05) {
            try provoke()
            return !messages.isEmpty
        }
        guard seen else { throw HarnessError("busctl monitor saw no traffic") }
    }

    /// Every JSON message seen so far.
    public var messages: [[String: Any]] {
        output.text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// The signals seen with this member name.
    public func signals(_ member: String) -> [[String: Any]] {
        messages.filter { ($0["type"] as? String) == "signal" && ($0["member"] as? String) == member }
    }

    /// Property names announced in PropertiesChanged so far, in order.
    public var changedProperties: [String] {
        signals("PropertiesChanged").flatMap { msg -> [String] in
            guard let payload = msg["payload"] as? [String: Any], let data = payload["data"] as? [Any], data.count >= 2,
                  let changed = data[1] as? [String: Any] else { return [] }
            return Array(changed.keys)
        }
    }

    public func stop() { output.stop() }

    deinit { stop() }
}
