import Foundation
import DBusKit
import SystemdKit
import TestSupport
import LoopSupport

// The rigs and fakes of `DoNotDisturbServiceTests` (see the suite's comment),
// which other suites of icared's status and menus use too.

/// State files for icared to restore (the engine's snapshot text, version 1).
enum DndState {
    static let interval: UInt64 = 1_200_000_000

    /// Counting down to `nextAt`.
    static func waiting(nextAt: UInt64) -> String {
        let now = UInt64(Date().timeIntervalSince1970 * 1_000_000)
        return "icare-engine=1\nclock=\(now)\nphase=waiting\nstart=\(nextAt - interval)\nnext=\(nextAt)\npause=none\n"
    }

    /// A reminder that went out `seconds` ago and is still out.
    static func due(sinceSecondsAgo seconds: UInt64) -> String {
        let now = UInt64(Date().timeIntervalSince1970 * 1_000_000), since = now - seconds * 1_000_000
        return "icare-engine=1\nclock=\(now)\nphase=due\nstart=\(since - interval)\nsince=\(since)\nheld=0\npause=none\n"
    }
}

/// icared with its own private bus whose service folder activates the real
/// dconf-service with the harness's `XDG_CONFIG_HOME`, so `gsettings` writes
/// the database icared reads (`<home>/config/dconf/user`).
///
/// The session is GNOME's unless told otherwise: `XDG_CURRENT_DESKTOP` is
/// `desktop` ("" means unset) and a program owning `shells` (GNOME Shell's
/// name, as the real one owns it) is on the bus, since GNOME's keys act
/// only where GNOME is in use. `ICARE_TEST_ICARED` runs another icared
/// (the code before a change, to see a test fail there).
final class DndDconfRig: @unchecked Sendable {
    let service: ServiceHarness
    let services: URL
    /// The loop the desktop's fake programs live on.
    let desktop: LoopThread
    static let dconfService = "/usr/libexec/dconf-service"

    init(desktop session: String = "GNOME", shells: [String] = ["org.gnome.Shell"]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.dconfService) else {
            throw HarnessError("\(Self.dconfService) is not installed; run scripts/deps.sh (package dconf-service).")
        }
        _ = try Subprocess.which("gsettings")
        services = FileManager.default.temporaryDirectory.appendingPathComponent("icare-dndsvc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        let bus = try PrivateBus(serviceDirectory: services.path)
        service = try ServiceHarness(environment: ["XDG_CURRENT_DESKTOP": session], bus: bus, start: false)
        service.program = ProcessInfo.processInfo.environment["ICARE_TEST_ICARED"]
        desktop = try LoopThread()
        desktop.start()
        for name in shells { try FakeBusProgram(busName: name).appear(on: desktop, address: bus.address) }
        let env = service.environment
        guard let config = env["XDG_CONFIG_HOME"], let runtime = env["XDG_RUNTIME_DIR"] else { throw HarnessError("no XDG folders") }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime)
        // dbus-daemon starts the service with its own environment: give it the harness's folders.
        try """
        [D-BUS Service]
        Name=ca.desrt.dconf
        Exec=/usr/bin/env XDG_CONFIG_HOME=\(config) XDG_RUNTIME_DIR=\(runtime) \(Self.dconfService)

        """.write(to: services.appendingPathComponent("ca.desrt.dconf.service"), atomically: true, encoding: .utf8)
    }

    /// Runs the real `gsettings` with the dconf backend on this bus and these folders.
    func gsettings(_ args: String...) throws {
        var env = service.environment
        env["GSETTINGS_BACKEND"] = "dconf"
        let r = try Subprocess.run(["gsettings"] + args, environment: env)
        guard r.status == 0 else { throw HarnessError("gsettings \(args.joined(separator: " ")) failed: \(r)") }
    }

    /// The dconf user database icared reads.
    var databasePath: String { (service.environment["XDG_CONFIG_HOME"] ?? "") + "/dconf/user" }

    /// Puts `bytes` in place by rename, as dconf-service does.
    func replaceDatabase(with bytes: Data) throws {
        let staged = databasePath + ".test-\(UUID().uuidString)"
        try bytes.write(to: URL(fileURLWithPath: staged))
        guard rename(staged, databasePath) == 0 else { throw HarnessError("rename failed: \(errno)") }
    }

    func dconfServiceRuns() throws -> Bool {
        let r = try service.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s", "ca.desrt.dconf"])
        return r.stdout == "b true\n"
    }

    /// SIGKILLs the activated dconf-service (a child of the bus, not of the test) by its pid.
    func killDconfService() {
        guard let pid = try? service.ownerProcess(of: "ca.desrt.dconf") else { return }
        kill(pid, SIGKILL)
    }

    func stop() {
        killDconfService()
        service.stop()
        desktop.stop()
        try? FileManager.default.removeItem(at: services)
    }
}

/// icared (not started yet) with a loop thread for in-process fake providers
/// on its private bus; `config` and `state` are written before it starts.
final class DndBusRig: @unchecked Sendable {
    let service: ServiceHarness
    let loop: LoopThread
    private var children: [Process] = []

    init(config: String? = nil, state: String? = nil, environment: [String: String] = [:], bus: PrivateBus? = nil) throws {
        service = try ServiceHarness(config: config, environment: environment, bus: bus, start: false)
        if let state {
            try FileManager.default.createDirectory(atPath: service.stateDirectory, withIntermediateDirectories: true)
            try state.write(toFile: service.stateDirectory + "/state", atomically: true, encoding: .utf8)
        }
        loop = try LoopThread()
        loop.start()
    }

    /// Where the tests begin: `fakes` put on the bus, then icared started; its harness.
    func start(with fakes: FakeBusProgram...) throws -> ServiceHarness {
        for fake in fakes { try appear(fake) }
        try service.start()
        return service
    }

    /// Puts a fake on the bus (again, after `vanish`), on the loop thread, which ends it at `stop`.
    func appear(_ fake: FakeBusProgram) throws { try fake.appear(on: loop, address: service.bus.address) }

    /// Runs `body` on the loop thread (fakes are touched only there).
    func sync<T>(_ body: @escaping () throws -> T) throws -> T { try loop.sync(body) }

    /// Watches every org.icare.Reminder signal on the bus, from before icared starts.
    func signalMonitor() throws -> BusMonitor {
        try BusMonitor(environment: service.environment, match: ["--match=type='signal',interface='org.icare.Reminder'"]) {
            try service.busctl(["emit", "/org/icare/Probe", "org.icare.Reminder", "Probe"])
        }
    }

    /// The real `dunstctl` (dbus-send to org.freedesktop.Notifications) on this bus.
    func dunstctl(_ args: String...) throws {
        let r = try Subprocess.run(["dunstctl"] + args, environment: service.environment)
        guard r.status == 0 else { throw HarnessError("dunstctl \(args.joined(separator: " ")) failed: \(r)") }
    }

    /// The real dunst on an Xvfb display of its own; waits until it owns its name.
    func startRealDunst() throws -> Process {
        let xvfb = try Xvfb(width: 640, height: 480)
        children.append(xvfb.process)
        let config = service.home.appendingPathComponent("dunstrc").path
        try "[global]\n    font = Monospace 8\n".write(toFile: config, atomically: true, encoding: .utf8)
        var env = service.environment
        env["DISPLAY"] = xvfb.display
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        let dunst = try Subprocess.start([try Subprocess.which("dunst"), "-config", config], environment: env)
        children.append(dunst)
        let owned = try waitUntil(timeout: 10) {
            try service.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                "NameHasOwner", "s", "org.freedesktop.Notifications"]).stdout == "b true\n" || !dunst.isRunning
        }
        guard owned, dunst.isRunning else { throw HarnessError("dunst did not take org.freedesktop.Notifications") }
        return dunst
    }

    /// Fakes leave the bus, the loop stops, children and icared are killed, the bus goes.
    func stop() {
        loop.stop()
        for child in children.reversed() { Subprocess.kill9(child) }
        service.stop()
    }
}

// MARK: fakes with the exact shapes of docs/desktop-facts.md


/// dunst: a notification server at `/org/freedesktop/Notifications` on
/// `org.freedesktop.Notifications`, plus `paused` (b) on
/// `org.dunstproject.cmd0`, set through `Properties.Set` (dunstctl) and
/// announced with `PropertiesChanged` with the value. Notify and
/// CloseNotification calls are recorded (`"Notify <id>"`, `"CloseNotification <id>"`).
final class DndFakeDunst: FakeBusProgram {
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.dunstproject.cmd0"
    var paused: Bool
    let calls = Box<[String]>([])
    private var lastID: UInt32 = 0

    init(paused: Bool = false) {
        self.paused = paused
        super.init(busName: "org.freedesktop.Notifications")
    }

    override func makeObjects() -> [ExportedObject] {
        [ExportedObject(path: ObjectPath(Self.path), interfaces: [
            Interface("org.freedesktop.Notifications", doc: "Desktop notifications.", methods: [
                Method("GetCapabilities", out: [Argument("capabilities", "as")], doc: "Capabilities.") { _ in
                    [.strings(["actions", "body", "body-hyperlinks", "body-markup", "icon-static", "persistence"])]
                },
                Method("GetServerInformation", out: [Argument("name", "s"), Argument("vendor", "s"), Argument("version", "s"),
                                                     Argument("spec_version", "s")], doc: "Who serves.") { _ in
                    [.string("dunst"), .string("knopwob"), .string("1.9.0"), .string("1.2")]
                },
                Method("Notify", in: [Argument("app_name", "s"), Argument("replaces_id", "u"), Argument("app_icon", "s"),
                                      Argument("summary", "s"), Argument("body", "s"), Argument("actions", "as"),
                                      Argument("hints", "a{sv}"), Argument("expire_timeout", "i")],
                       out: [Argument("id", "u")], doc: "Shows one.") { [unowned self] call in
                    let replaces = call.arguments[1].uint32 ?? 0
                    let id: UInt32
                    if replaces != 0 { id = replaces } else { lastID += 1; id = lastID }
                    calls.mutate { $0.append("Notify \(id)") }
                    return [.uint32(id)]
                },
                Method("CloseNotification", in: [Argument("id", "u")], doc: "Closes one.") { [unowned self] call in
                    calls.mutate { $0.append("CloseNotification \(call.arguments[0].uint32 ?? 0)") }
                    return []
                },
            ], signals: [
                SignalDescription("NotificationClosed", [Argument("id", "u"), Argument("reason", "u")], doc: "Closed."),
                SignalDescription("ActionInvoked", [Argument("id", "u"), Argument("action_key", "s")], doc: "Clicked."),
            ]),
            Interface(Self.interface, doc: "dunst control.", methods: [
                Method("Ping", doc: "Alive.") { _ in [] },
            ], properties: [
                Property("paused", "b", doc: "Paused.", read: { [unowned self] in .bool(paused) },
                         write: { [unowned self] value throws(DBusError) in setPaused(value.bool ?? false) }),
            ]),
        ])]
    }

    func setPaused(_ on: Bool) {
        paused = on
        object(Self.path)?.emitPropertiesChanged(InterfaceName(Self.interface), ["paused"])
    }

    /// PropertiesChanged without its third argument.
    func sendGarbage() {
        sendSignal(Self.path, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                   [.string(Self.interface), .vardict([("paused", .bool(true))])])
    }
}

/// SwayNotificationCenter 0.8+: `GetDnd() → b` on `org.erikreider.swaync.cc`
/// (bus, path and interface alike), announced with `SubscribeV2(u, b, b, b)`.
final class DndFakeSwaync: FakeBusProgram {
    static let path = "/org/erikreider/swaync/cc"
    static let interface = "org.erikreider.swaync.cc"
    var dnd: Bool

    init(dnd: Bool = false) {
        self.dnd = dnd
        super.init(busName: "org.erikreider.swaync.cc")
    }

    override func makeObjects() -> [ExportedObject] {
        [ExportedObject(path: ObjectPath(Self.path), interfaces: [
            Interface(Self.interface, doc: "swaync control center.", methods: [
                Method("GetDnd", out: [Argument("dnd", "b")], doc: "DND.") { [unowned self] _ in [.bool(dnd)] },
                Method("SetDnd", in: [Argument("state", "b")], doc: "Sets DND.") { [unowned self] call in
                    setDND(call.arguments[0].bool ?? false)
                    return []
                },
            ], signals: [
                SignalDescription("Subscribe", [Argument("count", "u"), Argument("dnd", "b"), Argument("cc_open", "b")], doc: "State."),
                SignalDescription("SubscribeV2", [Argument("count", "u"), Argument("dnd", "b"), Argument("cc_open", "b"),
                                                  Argument("inhibited", "b")], doc: "State."),
            ]),
        ])]
    }

    func setDND(_ on: Bool) {
        dnd = on
        object(Self.path)?.emit(InterfaceName(Self.interface), "SubscribeV2", [.uint32(0), .bool(on), .bool(false), .bool(false)])
    }

    /// SubscribeV2 with a string where the dnd boolean goes.
    func sendGarbage() {
        sendSignal(Self.path, Self.interface, "SubscribeV2", [.uint32(0), .string("on"), .bool(false)])
    }
}

/// xfconf: `GetProperty(s, s) → v` (PropertyNotFound when unset) on
/// `org.xfce.Xfconf` at `/org/xfce/Xfconf`, announced with
/// `PropertyChanged(s, s, v)` and `PropertyRemoved(s, s)`.
final class DndFakeXfconf: FakeBusProgram {
    static let path = "/org/xfce/Xfconf"
    static let interface = "org.xfce.Xfconf"
    static let channel = "xfce4-notifyd", property = "/do-not-disturb"
    var value: DBusValue?

    init() { super.init(busName: "org.xfce.Xfconf") }

    override func makeObjects() -> [ExportedObject] {
        [ExportedObject(path: ObjectPath(Self.path), interfaces: [
            Interface(Self.interface, doc: "xfconf.", methods: [
                Method("GetProperty", in: [Argument("channel", "s"), Argument("property", "s")], out: [Argument("value", "v")],
                       doc: "Reads.") { [unowned self] call throws(DBusError) in
                    guard call.arguments[0].string == Self.channel, call.arguments[1].string == Self.property, let value else {
                        throw DBusError(name: "org.xfce.Xfconf.Error.PropertyNotFound",
                                        message: "Property \"\(call.arguments[1].string ?? "")\" does not exist on channel \"\(call.arguments[0].string ?? "")\"")
                    }
                    return [.variant(value)]
                },
            ], signals: [
                SignalDescription("PropertyChanged", [Argument("channel", "s"), Argument("property", "s"), Argument("value", "v")], doc: "Changed."),
                SignalDescription("PropertyRemoved", [Argument("channel", "s"), Argument("property", "s")], doc: "Removed."),
            ]),
        ])]
    }

    func setDND(_ on: Bool) {
        value = .bool(on)
        object(Self.path)?.emit(InterfaceName(Self.interface), "PropertyChanged", [.string(Self.channel), .string(Self.property), .variant(.bool(on))])
    }

    func remove() {
        value = nil
        object(Self.path)?.emit(InterfaceName(Self.interface), "PropertyRemoved", [.string(Self.channel), .string(Self.property)])
    }
}
