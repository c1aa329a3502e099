import Foundation

/// A real `kdeconnectd` paired with a fake Android phone (`fake-phone.py` beside this file), for tests
/// that count what a phone receives from the desktop: pings, forwarded notifications, pair packets.
///
/// Both run in one network namespace of their own with only `lo` up (kdeconnectd broadcasts its
/// identity over UDP when it starts: nothing may leave the machine), which is also a PID namespace:
/// when its first process ends, the kernel kills everything in it. The bus is the caller's
/// (`busAddress`, a `unix:path=` address: a filesystem socket is reachable from inside the namespace,
/// an abstract one would not be). The phone connects by TCP to 127.0.0.1:1716 and is the TLS server
/// (docs/desktop-facts.md, "Phones: KDE Connect", for every shape used here and where it was verified).
///
/// Nothing outlives the rig: `stop` (and `deinit`) kill it all; if the test process dies first, each
/// process started here dies too (PR_SET_PDEATHSIG through `setpriv --pdeathsig KILL`; the namespace's
/// first process also ends when its standard input closes, and takes the namespace with it). The
/// death signal follows the thread that started a process: keep a rig within one synchronous test.
///
/// Notifications: kdeconnectd only watches `Notify` calls on the bus (an eavesdropping match), so a
/// notification server must answer them. When nothing owns `org.freedesktop.Notifications` at `init`,
/// the rig starts python3-dbusmock's `notification_daemon` template on the bus (and stops it with the
/// rest); a server the caller started first is used as it is (`startedNotificationServer` tells which).
public final class KDEConnectRig: PhoneRig, @unchecked Sendable {
    /// The phone's deviceId: 32 characters of `[0-9a-f]`, valid for protocol 7 and 8 (8 wants 32–38 `[A-Za-z0-9_-]`).
    public let deviceId: String
    public let phoneName: String
    public let protocolVersion: Int
    public let busAddress: String
    /// More arguments for the fake phone (`runCommand: false`: `--no-run-command`).
    let phoneArguments: [String]
    /// The device's object on kdeconnectd's bus name `org.kde.kdeconnect`.
    public var devicePath: String { "/modules/kdeconnect/devices/\(deviceId)" }
    /// The environment that points busctl and gdbus at the rig's bus.
    public var busEnvironment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": busAddress] }
    /// kdeconnectd's private HOME (its config: certificate, trusted devices, plugin settings) and the logs.
    public let directory: URL
    /// Whether the rig started the notification server (nothing owned the name at `init`).
    public private(set) var startedNotificationServer = false

    /// How long (s) a step may take: kdeconnectd answers within a second here; the first start makes its key.
    public var timeout: TimeInterval = 20

    private let daemonProgram: String
    private var namespace: LoopbackNamespace?
    private var daemon: Process?
    private var daemonStarts = 0
    private(set) var phone: FakePhone?
    /// The phones `addPhone` paired besides the first.
    var otherPhones: [OtherPhone] = []
    private var notificationServer: Process?
    private var stopped = false

    /// Where kdeconnectd runs when it is not the host's own in a namespace the rig makes: e.g. inside a
    /// `DesktopRoot` started with `loopbackOnly` (`KDEConnectRig+Root.swift`).
    public struct Elsewhere: Sendable {
        /// A process whose network namespace kdeconnectd and the phone share; it must have `lo` only
        /// (checked). The phone (the host's python3) joins its network and PID namespaces.
        public var namespacePID: Int32
        /// The command that runs a program there (e.g. `DesktopRoot.asUser`); kdeconnectd's path is appended.
        public var launcher: [String]
        /// kdeconnectd's path there.
        public var daemonProgram: String
        /// The rig's folder (kdeconnectd's HOME, the phone's state, the logs), seen at the same path there.
        public var directory: URL
        /// Who kdeconnectd runs as there (its folders are given to this user), nil to leave them root's.
        public var owner: UInt32?

        public init(namespacePID: Int32, launcher: [String], daemonProgram: String, directory: URL, owner: UInt32?) {
            self.namespacePID = namespacePID
            self.launcher = launcher
            self.daemonProgram = daemonProgram
            self.directory = directory
            self.owner = owner
        }
    }

    private let elsewhere: Elsewhere?

    /// The paths where kdeconnectd is installed (Debian and Ubuntu put it in libexec).
    public static let daemonCandidates = [
        "/usr/lib/x86_64-linux-gnu/libexec/kdeconnectd", "/usr/lib/aarch64-linux-gnu/libexec/kdeconnectd",
        "/usr/libexec/kdeconnectd", "/usr/lib/libexec/kdeconnectd",
    ]

    /// Starts the namespace, kdeconnectd and the phone, and waits (bounded) until the phone is connected
    /// and listed by kdeconnectd (`devices(false, false)`), not yet paired.
    /// `elsewhere`: kdeconnectd runs there instead (the rig makes no namespace of its own).
    /// `runCommand`: the phone declares Run command (as the Android app does unless the plugin is off on it).
    /// `settingsFolder`: kdeconnectd's `~/.config/kdeconnect` is this folder (made now, linked from its home),
    /// as on a desktop where KDE Connect and icared share one home.
    public init(busAddress: String, phoneName: String = "Pixel 7", protocolVersion: Int = 7, runCommand: Bool = true,
                elsewhere: Elsewhere? = nil, settingsFolder: String? = nil) throws {
        phoneArguments = runCommand ? [] : ["--no-run-command"]
        guard busAddress.hasPrefix("unix:path=") else {
            throw HarnessError("KDEConnectRig needs a bus on a filesystem socket (unix:path=…), reachable from its network namespace; got \(busAddress)")
        }
        guard protocolVersion == 7 || protocolVersion == 8 else { throw HarnessError("the fake phone speaks protocol 7 or 8, not \(protocolVersion)") }
        self.elsewhere = elsewhere
        guard let program = elsewhere?.daemonProgram ?? Self.daemonCandidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw HarnessError("kdeconnectd is not installed (looked in \(Self.daemonCandidates.joined(separator: ", "))); run scripts/deps.sh --test (the kdeconnect package).")
        }
        for tool in ["unshare", "nsenter", "setpriv", "ip", "busctl", "openssl"] { _ = try Subprocess.which(tool) }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw HarnessError("/usr/bin/python3 is not installed; run scripts/deps.sh --test.") }
        daemonProgram = program
        self.busAddress = busAddress
        self.phoneName = phoneName
        self.protocolVersion = protocolVersion
        deviceId = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        directory = elsewhere?.directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("icare-kdeconnect-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("home/.config"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("runtime"), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            if let settingsFolder {
                try FileManager.default.createDirectory(atPath: settingsFolder, withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("home/.config/kdeconnect").path,
                                                           withDestinationPath: settingsFolder)
            }
            if let owner = elsewhere?.owner {
                for sub in ["", "home", "home/.config", "runtime"] {
                    try FileManager.default.setAttributes([.ownerAccountID: owner, .groupOwnerAccountID: owner],
                                                          ofItemAtPath: directory.appendingPathComponent(sub).path)
                }
            }
            let (server, namespace) = try notificationServerAndNamespace(joining: elsewhere?.namespacePID)
            notificationServer = server
            startedNotificationServer = server != nil
            self.namespace = namespace
            loopbackLinks = namespace.links
            try startDaemon(connect: false)
            try startPhone()
            try command("connect")
            try waitForDevice(reachable: true)
        } catch {
            let logs = logTail()
            stop()
            throw HarnessError("\(error)\n\(logs)")
        }
    }

    deinit { stop() }

    // MARK: - What tests call

    /// The phone asks to pair (`kdeconnect.pair {"pair": true}`, with `timestamp` on protocol 8), the desktop
    /// accepts over the bus (`acceptPairing`); waits until kdeconnectd says `isTrusted`, the phone has the
    /// desktop's answer, and the ping plugin is loaded (its object `…/ping` is there for `sendPing`).
    public func pair() throws {
        let answersBefore = packets(type: "kdeconnect.pair").count
        try command("pair")
        try wait("kdeconnectd to see the phone's pairing request (hasPairingRequests; isPairRequestedByPeer from 24.x)") {
            try self.deviceFlag("hasPairingRequests", or: "isPairRequestedByPeer")
        }
        try call(devicePath, "org.kde.kdeconnect.device", "acceptPairing")
        try wait("kdeconnectd to trust the phone (isTrusted; isPaired from 24.x)") { try self.isPaired() }
        _ = try waitForPackets(type: "kdeconnect.pair", count: answersBefore + 1, timeout: timeout)
        try waitForPlugin("kdeconnect_ping", loaded: true)
    }

    /// The phone unpairs (`kdeconnect.pair {"pair": false}`); waits until kdeconnectd no longer trusts it.
    public func unpair() throws {
        try command("unpair")
        try wait("kdeconnectd to stop trusting the phone (isTrusted or isPaired false)") { try !self.isPaired() }
    }

    /// The desktop unpairs over the bus (`unpair` on the device); waits until the phone has `{"pair": false}`.
    public func unpairFromDesktop() throws {
        let before = packets(type: "kdeconnect.pair").filter { Self.body($0)["pair"] as? Bool == false }.count
        try call(devicePath, "org.kde.kdeconnect.device", "unpair")
        try wait("the phone to receive kdeconnect.pair {\"pair\": false}") {
            self.packets(type: "kdeconnect.pair").filter { Self.body($0)["pair"] as? Bool == false }.count > before
        }
    }

    /// Turns forwarding desktop notifications to the phone on or off (the plugin `kdeconnect_sendnotifications`,
    /// off by default, through `setPluginEnabled`); while the phone is paired and reachable, waits until the
    /// plugin is loaded (its Notify watch registered) or gone.
    public func setForwarding(_ on: Bool) throws {
        try call(devicePath, "org.kde.kdeconnect.device", "setPluginEnabled", "sb", "kdeconnect_sendnotifications", on ? "true" : "false")
        try wait("isPluginEnabled(kdeconnect_sendnotifications) to be \(on)") {
            let r = try self.busctl(["call", "org.kde.kdeconnect", self.devicePath, "org.kde.kdeconnect.device", "isPluginEnabled", "s", "kdeconnect_sendnotifications"])
            return r.stdout == "b \(on)\n"
        }
        if try isPaired(), try deviceProperty("isReachable") == "b true" {
            try waitForPlugin("kdeconnect_sendnotifications", loaded: on)
        }
    }

    /// The phone closes its connection; waits until kdeconnectd says it is not reachable (a paired phone
    /// stays listed; an unpaired one is removed).
    public func disconnectPhone() throws {
        try command("disconnect")
        try waitForDevice(reachable: false)
    }

    /// The phone connects again; waits until it is reachable (and, when paired, its ping plugin loaded).
    public func connectPhone() throws {
        try command("connect")
        try waitForDevice(reachable: true)
        if try isPaired() { try waitForPlugin("kdeconnect_ping", loaded: true) }
    }

    /// Ends kdeconnectd as a logout would: `quit` on `/MainApplication` (its settings written), SIGKILL when it
    /// does not go in 5 s; waits until its name is gone from the bus and the phone saw the connection close.
    public func stopDaemon() {
        guard let daemon else { return }
        let wasConnected = phone?.isConnected == true
        let eventsBefore = phone?.eventCount ?? 0
        _ = try? busctl(["call", "org.kde.kdeconnect", "/MainApplication", "org.qtproject.Qt.QCoreApplication", "quit"], timeout: 5)
        daemonQuitCleanly = waitUntil(timeout: 5, interval: 0.05) { !daemon.isRunning }
        Subprocess.killGroup(daemon)
        self.daemon = nil
        _ = waitUntil(timeout: 5, interval: 0.05) { !self.nameHasOwner("org.kde.kdeconnect") }
        if wasConnected { _ = waitUntil(timeout: 5, interval: 0.05) { (self.phone?.eventCount ?? 0) > eventsBefore } }
    }

    /// Whether the last `stopDaemon` saw kdeconnectd end on its own after `quit` (false: it was killed).
    public private(set) var daemonQuitCleanly = false

    /// Starts kdeconnectd again with the same HOME (pairing and plugin settings kept); the phone connects
    /// again as a real one would on the desktop's broadcast, and the rig waits until it is reachable.
    public func startDaemon() throws {
        try startDaemon(connect: true)
    }

    /// The packets the phone received so far whose `type` is `type`, each the whole packet (`id`, `type`, `body`).
    /// The phone sends one packet to the desktop (`body`: its JSON), e.g. a Run command request.
    public func send(_ type: String, body: String) throws { try command("send \(type) \(body)") }

    public func packets(type: String) -> [[String: Any]] { phone?.packets(type: type) ?? [] }

    /// Waits (bounded) until the phone has received at least `count` packets of `type`; returns them all.
    @discardableResult
    public func waitForPackets(type: String, count: Int, timeout: TimeInterval) throws -> [[String: Any]] {
        guard let phone else { throw HarnessError("the fake phone is not running") }
        return try phone.waitForPackets(type: type, count: count, timeout: timeout)
    }

    /// A packet's body (empty when it has none).
    public static func body(_ packet: [String: Any]) -> [String: Any] { FakePhone.body(packet) }

    /// kdeconnectd's version as it says on the bus (`applicationVersion` of `org.qtproject.Qt.QCoreApplication`
    /// on `/MainApplication`: "22.12.3" on Debian 12).
    public func daemonVersion() throws -> String {
        let r = try busctl(["get-property", "org.kde.kdeconnect", "/MainApplication", "org.qtproject.Qt.QCoreApplication", "applicationVersion"])
        guard r.status == 0, r.stdout.hasPrefix("s \"") else { throw HarnessError("applicationVersion: \(r)") }
        return String(r.stdout.dropFirst(3).dropLast(2))
    }

    /// The last lines of kdeconnectd's and the phone's logs, for failure messages.
    public func logTail() -> String {
        func tail(_ name: String) -> String {
            let text = (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? "(none)"
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("Not loading plugin") }
            return lines.suffix(25).joined(separator: "\n")
        }
        return "kdeconnectd's log (\(directory.path)/kdeconnectd.log):\n\(tail("kdeconnectd.log"))\nthe fake phone's errors:\n\(tail("phone.log"))"
    }

    /// Kills the phone, kdeconnectd, the namespace and the notification server the rig started; removes its folder.
    public func stop() {
        if stopped { return }
        stopped = true
        phone?.stop()
        for other in otherPhones { other.stop() }
        otherPhones = []
        if let daemon { Subprocess.killGroup(daemon) }
        namespace?.stop()
        if let notificationServer { Subprocess.killGroup(notificationServer) }
        phone = nil; daemon = nil; namespace = nil; notificationServer = nil
        if elsewhere == nil { try? FileManager.default.removeItem(at: directory) }
    }

    // MARK: - Starting

    /// The network links `ip -o link` listed in the rig's network namespace at the start (`["lo"]`).
    public private(set) var loopbackLinks: [String] = []

    /// What runs a program in the rig's namespace.
    var enter: [String] { namespace?.enter ?? [] }

    var baseEnvironment: [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/sbin:/usr/bin:/sbin:/bin",
            "LANG": "C.UTF-8", "DBUS_SESSION_BUS_ADDRESS": busAddress,
        ]
    }

    private func startDaemon(connect: Bool) throws {
        guard daemon == nil else { throw HarnessError("kdeconnectd is already running") }
        let home = directory.appendingPathComponent("home").path
        var env = baseEnvironment
        env["HOME"] = home
        env["XDG_CONFIG_HOME"] = home + "/.config"
        env["XDG_DATA_HOME"] = home + "/.local/share"
        env["XDG_CACHE_HOME"] = home + "/.cache"
        env["XDG_RUNTIME_DIR"] = directory.appendingPathComponent("runtime").path
        env["QT_QPA_PLATFORM"] = "offscreen"
        env["QT_LOGGING_RULES"] = "kdeconnect.*.debug=true"
        daemonStarts += 1
        let log = directory.appendingPathComponent(daemonStarts == 1 ? "kdeconnectd.log" : "kdeconnectd-\(daemonStarts).log").path
        let command = elsewhere.map { ["setpriv", "--pdeathsig", "KILL", "--"] + $0.launcher + [daemonProgram] } ?? (enter + [daemonProgram])
        let p = try Subprocess.startLogged(command, log: log, environment: env)
        daemon = p
        try wait("kdeconnectd to own org.kde.kdeconnect") { self.nameHasOwner("org.kde.kdeconnect") || !p.isRunning }
        guard p.isRunning else { throw HarnessError("kdeconnectd ended at start: \(logTail())") }
        if daemonStarts > 1 {
            // Later starts log beside the first, so that logTail shows the running one.
            try? FileManager.default.removeItem(at: directory.appendingPathComponent("kdeconnectd.log"))
            try? FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("kdeconnectd.log").path, withDestinationPath: log)
        }
        if connect { try connectPhone() }
    }

    private func startPhone() throws { phone = try launchPhone() }

    // MARK: - Helpers

    /// A call waits as long as busctl's own (25 s): a loaded kdeconnectd may take over 10 s to answer.
    func busctl(_ arguments: [String], timeout: TimeInterval = 30) throws -> ProcessResult {
        try Subprocess.run(["busctl", "--user"] + arguments, environment: busEnvironment, timeout: timeout)
    }

    func call(_ path: String, _ interface: String, _ method: String, _ arguments: String...) throws {
        let r = try busctl(["call", "org.kde.kdeconnect", path, interface, method] + arguments)
        guard r.status == 0 else { throw HarnessError("\(interface).\(method) on \(path) failed: \(r)\n\(logTail())") }
    }

    /// busctl's text for a property of the device ("b true"), nil when the device is not there.
    private func deviceProperty(_ name: String) throws -> String? {
        let r = try busctl(["get-property", "org.kde.kdeconnect", devicePath, "org.kde.kdeconnect.device", name])
        return r.status == 0 ? r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    /// Whether kdeconnectd trusts the phone: `isTrusted` (22.12), `isPaired` (24.x and later).
    private func isPaired() throws -> Bool { try deviceFlag("isTrusted", or: "isPaired") }

    /// A boolean property of the device by its older name, or its newer one where the older is not there.
    private func deviceFlag(_ name: String, or newer: String) throws -> Bool {
        if let value = try deviceProperty(name) { return value == "b true" }
        return try deviceProperty(newer) == "b true"
    }

    private func nameHasOwner(_ name: String) -> Bool { PhoneRigBus.nameHasOwner(name, busAddress: busAddress) }

    private func waitForDevice(reachable: Bool) throws {
        try wait("kdeconnectd to list the phone as \(reachable ? "reachable" : "unreachable")") {
            let listed = try self.busctl(["call", "org.kde.kdeconnect", "/modules/kdeconnect", "org.kde.kdeconnect.daemon", "devices", "bb", "false", "false"])
            guard listed.stdout.contains("\"\(self.deviceId)\"") else { return !reachable }  // an unpaired phone that left is removed
            return try self.deviceProperty("isReachable") == "b \(reachable)"
        }
    }

    private func waitForPlugin(_ plugin: String, loaded: Bool) throws {
        try wait("kdeconnectd to \(loaded ? "load" : "unload") \(plugin) for the phone") {
            let r = try self.busctl(["call", "org.kde.kdeconnect", self.devicePath, "org.kde.kdeconnect.device", "loadedPlugins"])
            return r.status == 0 && r.stdout.contains("\"\(plugin)\"") == loaded
        }
    }
}
