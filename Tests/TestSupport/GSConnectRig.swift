import Foundation

/// GSConnect's service (the GNOME Shell extension's gjs daemon, `org.gnome.Shell.Extensions.GSConnect`),
/// run headless and paired with the fake Android phone (`fake-phone.py` beside this file), for tests that
/// count what a phone receives from the desktop: pings, forwarded notifications, pair packets.
///
/// What runs, all in one network namespace with only `lo` up (GSConnect listens on UDP and TCP 1716 and
/// broadcasts its identity: nothing may leave the machine), which is also a PID namespace whose first
/// process ends when its standard input closes and takes everything in it along:
///
/// - Xvfb: the service is a `Gtk.Application` (GTK 3) and ends at start without a display
///   ("cannot open display", exit 1);
/// - dconf-service on the caller's bus, with the rig's own HOME and XDG folders, so that GSConnect's
///   settings (and GNOME's notification settings it reads) are the rig's own, written with the real
///   `gsettings` / `dconf` through `environment`;
/// - the service, `gjs …/gsconnect@andyholmes.github.io/service/daemon.js`, as D-Bus activation would
///   start it, with an empty private system bus (no logind: its session counts as active);
/// - the fake phone, which connects by TCP to 127.0.0.1:1716 (protocol 7) and is the TLS server.
///
/// The bus is the caller's (`busAddress`, a `unix:path=` address, reachable from the namespace). It must
/// have no dconf of its own (nothing owning or activating `ca.desrt.dconf`): the rig starts one for its
/// folders. When nothing owns `org.freedesktop.Notifications`, the rig starts python3-dbusmock's
/// `notification_daemon` there (GSConnect forwards only the `Notify` calls it sees that server receive).
///
/// Nothing outlives the rig: `stop` (and `deinit`) kill it all; if the test process dies first, each process
/// dies too (`setpriv --pdeathsig KILL`; the namespace's first process also ends when its standard input
/// closes). The death signal follows the thread that started a process: keep a rig within one synchronous
/// test. The shapes used here, verified on GSConnect 54 (Debian 12), are in docs/desktop-facts.md,
/// "Phones: GSConnect".
public final class GSConnectRig: PhoneRig, @unchecked Sendable {
    public static let busName = "org.gnome.Shell.Extensions.GSConnect"
    public static let managerPath = "/org/gnome/Shell/Extensions/GSConnect"
    public static let deviceInterface = "org.gnome.Shell.Extensions.GSConnect.Device"
    public static let notificationSchema = "org.gnome.Shell.Extensions.GSConnect.Plugin.Notification"
    /// Where Debian installs the extension (`gnome-shell-extension-gsconnect`).
    public static let extensionFolder = "/usr/share/gnome-shell/extensions/gsconnect@andyholmes.github.io"

    /// The phone's deviceId (32 hex digits: the object path keeps it as it is).
    public let deviceId: String
    public let phoneName: String
    public let busAddress: String
    /// The device's object: `/org/gnome/Shell/Extensions/GSConnect/Device/` and the id with each run of
    /// non-word characters made `_` (GSConnect's rule).
    public var devicePath: String {
        Self.managerPath + "/Device/" + String(deviceId.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
    }
    /// The per-device settings' folder in dconf, and the notification plugin's under it.
    public var deviceSettingsPath: String { "/org/gnome/shell/extensions/gsconnect/device/\(deviceId)/" }
    public var notificationSettingsPath: String { deviceSettingsPath + "plugin/notification/" }
    /// The rig's HOME, XDG folders and logs.
    public let directory: URL
    /// Whether the rig started the notification server (nothing owned the name at `init`).
    public private(set) var startedNotificationServer = false
    /// How long (s) a step may take: the service starts in about a second here; its first start makes its key.
    public var timeout: TimeInterval = 20
    /// The LAN protocol the fake phone speaks: 7 (GSConnect 54) or 8 (GSConnect 59 and later: 62, 74).
    public let protocolVersion: Int
    /// Where the service runs when it is not the host's own in a namespace the rig makes (`GSConnectRig+Root.swift`).
    let elsewhere: Elsewhere?
    /// The network links `ip -o link` listed in the rig's network namespace at the start (`["lo"]`).
    public private(set) var loopbackLinks: [String] = []

    var systemBus: Process?
    private var namespace: LoopbackNamespace?
    var display: Process?
    var dconf: Process?
    var service: Process?
    private(set) var phone: FakePhone?
    private var notificationServer: Process?
    var displayNumber = ""
    private var stopped = false

    /// Starts the namespace, Xvfb, dconf, the service and the phone, and waits (bounded) until the phone is
    /// connected and listed by the service's ObjectManager (`Connected` true, `Paired` false).
    /// `protocolVersion`: the fake phone's (7 or 8). `elsewhere`: the service runs there instead, with that
    /// place's display-less session, dconf and system bus (the rig makes no namespace of its own).
    public init(busAddress: String, phoneName: String = "Pixel 7", protocolVersion: Int = 7, elsewhere: Elsewhere? = nil) throws {
        guard busAddress.hasPrefix("unix:path=") else {
            throw HarnessError("GSConnectRig needs a bus on a filesystem socket (unix:path=…), reachable from its network namespace; got \(busAddress)")
        }
        guard protocolVersion == 7 || protocolVersion == 8 else { throw HarnessError("the fake phone speaks protocol 7 or 8, not \(protocolVersion)") }
        self.protocolVersion = protocolVersion
        self.elsewhere = elsewhere
        if elsewhere == nil {
            guard FileManager.default.fileExists(atPath: Self.extensionFolder + "/service/daemon.js") else {
                throw HarnessError("GSConnect is not installed (\(Self.extensionFolder)); run scripts/deps.sh --test (gnome-shell-extension-gsconnect).")
            }
            for tool in ["gjs", "Xvfb", "gsettings", "dconf", "openssl"] { _ = try Subprocess.which(tool) }
            guard FileManager.default.isExecutableFile(atPath: "/usr/libexec/dconf-service") else {
                throw HarnessError("/usr/libexec/dconf-service is not installed; run scripts/deps.sh --test (dconf-service).")
            }
        }
        for tool in ["unshare", "nsenter", "setpriv", "ip", "busctl"] { _ = try Subprocess.which(tool) }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw HarnessError("/usr/bin/python3 is not installed; run scripts/deps.sh --test.") }
        self.busAddress = busAddress
        self.phoneName = phoneName
        deviceId = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        directory = elsewhere?.directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("icare-gsconnect-\(UUID().uuidString)")
        do {
            if let elsewhere {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                if let owner = elsewhere.owner {
                    try FileManager.default.setAttributes([.ownerAccountID: owner, .groupOwnerAccountID: owner], ofItemAtPath: directory.path)
                }
            } else {
                // state/icare/history: iCare has run in this home before, so no first-start notice gets in the way.
                for dir in ["home", "config", "cache", "data", "state/icare/history"] {
                    try FileManager.default.createDirectory(at: directory.appendingPathComponent(dir), withIntermediateDirectories: true)
                }
                try FileManager.default.createDirectory(at: directory.appendingPathComponent("runtime"), withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
                try checkNoDconf()
            }
            let (server, namespace) = try notificationServerAndNamespace(joining: elsewhere?.namespacePID)
            notificationServer = server
            startedNotificationServer = server != nil
            self.namespace = namespace
            loopbackLinks = namespace.links
            if elsewhere == nil { try startSystemBus() }
            try startDisplay()
            if elsewhere == nil { try startDconf() }
            try startService()
            try startPhone()
            try command("connect")
            try wait("GSConnect to list the phone as connected") { try self.deviceProperty("Connected") == "b true" }
        } catch {
            let logs = logTail()
            stop()
            throw HarnessError("\(error)\n\(logs)")
        }
    }

    deinit { stop() }

    // MARK: - What tests call

    /// The environment for clients of the rig's bus and settings: busctl and gdbus (the bus), gsettings and
    /// dconf (the rig's dconf database: HOME, XDG_CONFIG_HOME, XDG_RUNTIME_DIR, GSETTINGS_BACKEND=dconf).
    public var environment: [String: String] {
        if let elsewhere { return elsewhere.environment }
        return [
            "DBUS_SESSION_BUS_ADDRESS": busAddress, "GSETTINGS_BACKEND": "dconf",
            "HOME": directory.appendingPathComponent("home").path,
            "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
            "XDG_DATA_HOME": directory.appendingPathComponent("data").path,
            "XDG_STATE_HOME": directory.appendingPathComponent("state").path,
            "XDG_RUNTIME_DIR": directory.appendingPathComponent("runtime").path,
        ]
    }

    /// Pairs as GSConnect's "Pair" does: `Activate("pair")` on the device's `org.gtk.Actions` sends the phone
    /// `kdeconnect.pair {"pair": true}`, the phone answers with the same; waits until `Paired` is true and the
    /// `ping` action is listed and enabled. Returns the device id.
    @discardableResult
    public func pair() throws -> String {
        let before = pairPackets(true)
        try activate("pair")
        try wait("the phone to receive GSConnect's kdeconnect.pair {\"pair\": true}") { self.pairPackets(true) > before }
        try command("pair")
        try wait("GSConnect to say Paired") { try self.deviceProperty("Paired") == "b true" }
        try wait("the ping action to be enabled") { try self.actionEnabled("ping") == true }
        return deviceId
    }

    /// The phone unpairs (`kdeconnect.pair {"pair": false}`); waits until `Paired` is false.
    public func unpair() throws {
        try command("unpair")
        try wait("GSConnect to say not Paired") { try self.deviceProperty("Paired") == "b false" }
    }

    /// The desktop unpairs (`Activate("unpair")`); waits until the phone has `{"pair": false}`.
    public func unpairFromDesktop() throws {
        let before = pairPackets(false)
        try activate("unpair")
        try wait("the phone to receive kdeconnect.pair {\"pair\": false}") { self.pairPackets(false) > before }
    }

    /// Turns forwarding desktop notifications to the phone on or off: the notification plugin's
    /// `send-notifications` key (default true) at `notificationSettingsPath`, with the real gsettings.
    public func setForwarding(_ on: Bool) throws {
        try setNotificationSetting("send-notifications", on ? "true" : "false")
    }

    /// `gsettings get` of a key of the notification plugin's settings for this device ("true").
    public func notificationSetting(_ key: String) throws -> String {
        let r = try Subprocess.run(settingsLauncher + ["gsettings", "get", "\(Self.notificationSchema):\(notificationSettingsPath)", key], environment: environment)
        guard r.status == 0 else { throw HarnessError("gsettings get \(key): \(r)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `gsettings set` of a key of the notification plugin's settings for this device (GVariant text); reads it back.
    public func setNotificationSetting(_ key: String, _ value: String) throws {
        let r = try Subprocess.run(settingsLauncher + ["gsettings", "set", "\(Self.notificationSchema):\(notificationSettingsPath)", key, value], environment: environment)
        guard r.status == 0 else { throw HarnessError("gsettings set \(key) \(value): \(r)") }
        try wait("\(key) to read back as \(value)") { try self.notificationSetting(key) == value }
    }

    /// The phone closes its connection; waits until `Connected` is false (a paired phone stays listed;
    /// an unpaired one is removed within 5 s, GSConnect's reconnect round).
    public func disconnectPhone() throws {
        try command("disconnect")
        try wait("GSConnect to say not Connected") { try self.deviceProperty("Connected") != "b true" }
    }

    /// The phone connects again; waits until `Connected` is true.
    public func connectPhone() throws {
        try command("connect")
        try wait("GSConnect to say Connected") { try self.deviceProperty("Connected") == "b true" }
    }

    /// The packets the phone received so far whose `type` is `type`, each the whole packet (`id`, `type`, `body`).
    public func packets(type: String) -> [[String: Any]] { phone?.packets(type: type) ?? [] }

    /// The phone sends one packet to the desktop (`body`: its JSON), e.g. a Run command request.
    public func send(_ type: String, body: String) throws { try command("send \(type) \(body)") }

    /// Waits (bounded) until the phone has received at least `count` packets of `type`; returns them all.
    @discardableResult
    public func waitForPackets(type: String, count: Int, timeout: TimeInterval) throws -> [[String: Any]] {
        guard let phone else { throw HarnessError("the fake phone is not running") }
        return try phone.waitForPackets(type: type, count: count, timeout: timeout)
    }

    /// What runs gsettings and dconf against the rig's settings: here, or `elsewhere`'s launcher (its schemas).
    public var settingsLauncher: [String] { elsewhere?.launcher ?? [] }

    /// A packet's body (empty when it has none).
    public static func body(_ packet: [String: Any]) -> [String: Any] { FakePhone.body(packet) }

    /// The installed GSConnect's version (`version` in the extension's metadata.json: 54 on Debian 12).
    public static func version() throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: extensionFolder + "/metadata.json"))
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any], let version = json["version"] as? Int else {
            throw HarnessError("no version in \(extensionFolder)/metadata.json")
        }
        return version
    }

    /// The last lines of the service's, Xvfb's and the phone's logs, for failure messages.
    public func logTail() -> String {
        func tail(_ name: String) -> String {
            let text = (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? "(none)"
            return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(25).joined(separator: "\n")
        }
        return "GSConnect's log (\(directory.path)/gsconnect.log):\n\(tail("gsconnect.log"))\nXvfb:\n\(tail("xvfb.log"))\nthe fake phone's errors:\n\(tail("phone.log"))"
    }

    /// Kills the phone, the service, dconf, Xvfb, the namespace, the notification server the rig started and
    /// its system bus; removes its folder.
    public func stop() {
        if stopped { return }
        stopped = true
        phone?.stop()
        for p in [service, dconf, display, systemBus].compactMap({ $0 }) { Subprocess.killGroup(p) }
        namespace?.stop()
        if let notificationServer { Subprocess.killGroup(notificationServer) }
        phone = nil; service = nil; dconf = nil; display = nil; systemBus = nil; namespace = nil; notificationServer = nil
        // Elsewhere, the folder is the place's (a root's work folder goes with the root).
        if elsewhere == nil { try? FileManager.default.removeItem(at: directory) }
    }

    // MARK: - Starting

    private func checkNoDconf() throws {
        let r = try busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListActivatableNames"])
        if nameHasOwner("ca.desrt.dconf") || r.stdout.contains("\"ca.desrt.dconf\"") {
            throw HarnessError("the bus already has a dconf (ca.desrt.dconf): GSConnectRig starts its own for its folders; give it a bus without one")
        }
    }

    /// What runs a program in the rig's namespace.
    var enter: [String] { namespace?.enter ?? [] }

    var baseEnvironment: [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/sbin:/usr/bin:/sbin:/bin",
            "LANG": "C.UTF-8", "DBUS_SESSION_BUS_ADDRESS": busAddress,
        ]
    }

    /// The environment the rig's programs in the namespace run with.
    var serviceEnvironment: [String: String] {
        var env = baseEnvironment.merging(environment) { $1 }
        if elsewhere == nil { env["DBUS_SYSTEM_BUS_ADDRESS"] = systemBusAddress }
        env["DISPLAY"] = ":" + displayNumber
        env["GDK_BACKEND"] = "x11"
        env["NO_AT_BRIDGE"] = "1"
        env["WAYLAND_DISPLAY"] = ""
        return env
    }

    private func startPhone() throws { phone = try launchPhone() }

    // MARK: - Helpers

    private func pairPackets(_ pair: Bool) -> Int {
        packets(type: "kdeconnect.pair").filter { Self.body($0)["pair"] as? Bool == pair }.count
    }

    private func busctl(_ arguments: [String], timeout: TimeInterval = 10) throws -> ProcessResult {
        try Subprocess.run(["busctl", "--user"] + arguments, environment: ["DBUS_SESSION_BUS_ADDRESS": busAddress], timeout: timeout)
    }

    /// `org.gtk.Actions.Activate(name, [], {})` on the device.
    private func activate(_ action: String) throws {
        let r = try busctl(["call", Self.busName, devicePath, "org.gtk.Actions", "Activate", "sava{sv}", action, "0", "0"])
        guard r.status == 0 else { throw HarnessError("Activate(\(action)) on \(devicePath): \(r)\n\(logTail())") }
    }

    /// Whether the device's action is enabled (`Describe`), nil when it is not listed.
    private func actionEnabled(_ action: String) throws -> Bool? {
        let r = try busctl(["call", Self.busName, devicePath, "org.gtk.Actions", "Describe", "s", action])
        guard r.status == 0 else { return nil }
        return r.stdout.hasPrefix("(bgav) true")
    }

    /// busctl's text for a property of the device ("b true"), nil when the device is not there.
    private func deviceProperty(_ name: String) throws -> String? {
        let r = try busctl(["get-property", Self.busName, devicePath, Self.deviceInterface, name])
        return r.status == 0 ? r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    func nameHasOwner(_ name: String) -> Bool { PhoneRigBus.nameHasOwner(name, busAddress: busAddress) }
}
