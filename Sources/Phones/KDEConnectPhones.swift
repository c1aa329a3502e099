import DBusKit
import DesktopWatch

/// KDE Connect's daemon (`kdeconnectd`, the name `org.kde.kdeconnect`): its
/// paired, reachable devices and whether it forwards the desktop's
/// notifications to each, read again on each of its signals, and its ping.
///
/// The shapes, checked against kdeconnectd 22.12 and 26.08 (docs/phones.md):
/// `deviceNames(bb)` → `a{ss}` on `/modules/kdeconnect`; each device's
/// `loadedPlugins()` → `as` on `/modules/kdeconnect/devices/ID`, where
/// `kdeconnect_ping` and `kdeconnect_sendnotifications` are loaded only when
/// enabled on the desktop and accepted by the phone; `sendPing(s)` on
/// `…/ID/ping`; the version as Qt's `applicationVersion` on `/MainApplication`.
public final class KDEConnectPhones: PhoneSource {
    static let pingInterface = InterfaceName("org.kde.kdeconnect.device.ping")
    static let pingPlugin = "kdeconnect_ping"
    static let forwardingPlugin = "kdeconnect_sendnotifications"

    private let program: PhoneProgram
    private var server: BusNameFollower { program.server }
    private let connection: Connection
    private let problems: ProblemLog
    private(set) var phones: [Phone] = []
    var onChange: (() -> Void)?
    private var gate = RefreshGate()
    private var subscriptions: [SignalSubscription] = []
    /// Whether this daemon leaves notifications with the hint `x-kdeconnect-source-device` on the desktop
    /// (26.08 and later); nil until its version is read.
    private var dropsHinted: Bool?

    init(connection: Connection, problems: ProblemLog, program: PhoneProgram) {
        self.connection = connection
        self.problems = problems
        self.program = program
    }

    func start() {
        subscriptions = Self.followDevices(on: connection) { [unowned self] in self.refresh() }
        program.follow { [unowned self] owner in
            self.gate.reset()
            self.dropsHinted = nil
            if owner == nil { self.publish([]) } else { self.refresh() }
        }
    }

    /// Runs `changed` on any signal of the daemon or of a device (added, removed, seen, paired, unpaired,
    /// renamed, plugins): each is a reason to read again (the phone remote follows them too).
    public static func followDevices(on connection: Connection, _ changed: @escaping () -> Void) -> [SignalSubscription] {
        [KDEConnectBus.daemonInterface, KDEConnectBus.deviceInterface].map { interface in
            connection.subscribe(MatchRule(sender: KDEConnectBus.name.rawValue, interface: interface.rawValue)) { _ in changed() }
        }
    }

    private func refresh() {
        guard server.owner != nil, gate.begin() else { return }
        if dropsHinted == nil { readVersion() }
        server.call(KDEConnectBus.daemonPath, KDEConnectBus.daemonInterface, "deviceNames", [.bool(true), .bool(true)]) { [unowned self] result in
            switch result {
            case .success(let reply):
                guard let names = reply.single("a{ss}")?.stringDictionary else {
                    self.problems.report(KDEConnectBus.provider, .reply, "deviceNames answered \(reply.signatureForLog) instead of 'a{ss}'",
                                         consequence: "no phones from it")
                    return self.finish([])
                }
                let devices = names.compactMap { id, name in name.string.map { (id, $0) } }.sorted { $0.0 < $1.0 }
                self.readPlugins(Array(devices.prefix(PhoneLimits.phones)), into: [])
            case .failure(let e):
                self.problems.report(KDEConnectBus.provider, .reply, "deviceNames failed: \(e.message)", consequence: "no phones from it")
                self.finish([])
            }
        }
    }

    /// Reads each device's loaded plugins in turn (there are one or two phones, not hundreds).
    private func readPlugins(_ rest: [(id: String, name: String)], into found: [Phone]) {
        guard let (id, name) = rest.first else { return finish(found) }
        let next = Array(rest.dropFirst())
        guard let path = KDEConnectBus.devicePath(id) else {
            problems.report(KDEConnectBus.provider, .value, "a device id that is no object path element (\(id.prefix(40)))",
                            consequence: "that device is left out")
            return readPlugins(next, into: found)
        }
        server.call(path, KDEConnectBus.deviceInterface, "loadedPlugins") { [unowned self] result in
            var found = found
            if case .success(let reply) = result, let plugins = reply.single("as")?.strings {
                if let phone = self.phone(id: id, name: name, plugins: Set(plugins)) { found.append(phone) }
            } else {
                // A device that went away between the two calls: the signal that says so reads again.
                self.problems.report(KDEConnectBus.provider, .reply, "loadedPlugins of a device did not answer as 'as'",
                                     consequence: "that device is left out")
            }
            self.readPlugins(next, into: found)
        }
    }

    private func phone(id: String, name: String, plugins: Set<String>) -> Phone? {
        let forwards = plugins.contains(Self.forwardingPlugin)
        guard forwards || plugins.contains(Self.pingPlugin) else { return nil }
        let forwarding: Phone.Forwarding = !forwards ? .off : (dropsHinted == true ? .unlessHinted : .everything)
        return Phone(app: .kdeConnect, id: id, name: PhoneLimits.name(name, id: id), forwarding: forwarding)
    }

    private func finish(_ found: [Phone]) {
        publish(found)
        if gate.end() { refresh() }
    }

    private func publish(_ found: [Phone]) {
        guard found != phones else { return }
        phones = found
        onChange?()
    }

    private func readVersion() {
        server.getProperty(ObjectPath("/MainApplication"), "org.qtproject.Qt.QCoreApplication", "applicationVersion") {
            [unowned self] result in
            guard case .success(let reply) = result, let version = reply.single("v")?.string else {
                self.dropsHinted = false
                return
            }
            self.dropsHinted = Self.dropsHinted(version: version)
            // Read again if it changes what the phones are told apart by.
            if self.dropsHinted == true, self.phones.contains(where: { $0.forwarding == .everything }) { self.refresh() }
        }
    }

    /// KDE Connect 26.08 (its first beta, 26.07.80) was the first to keep notifications with
    /// `x-kdeconnect-source-device` on the desktop.
    static func dropsHinted(version: String) -> Bool {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count >= 2, parts.allSatisfy({ $0 != nil }) else { return false }
        let numbers = parts.map { $0! } + [0]
        return (numbers[0], numbers[1], numbers[2]) >= (26, 7, 80)
    }

    func ping(_ phone: Phone, message: String) {
        guard let path = KDEConnectBus.devicePath(phone.id, "/ping") else { return }
        server.call(path, Self.pingInterface, "sendPing", [.string(message)]) { [unowned self] result in
            if case .failure(let e) = result {
                self.problems.report(KDEConnectBus.provider, .reply, "a ping to \(phone.name) was refused: \(e.message)",
                                     consequence: "the desktop's reminder still goes out")
            }
        }
    }
}
