import DBusKit
import DesktopWatch

/// GNOME's session manager (`org.gnome.SessionManager` at
/// `/org/gnome/SessionManager`, shapes in docs/desktop-facts.md): the
/// `InhibitedActions` (u) property, whose bit 8 means "the session may not
/// go idle", changes with `PropertiesChanged` (with the value);
/// `InhibitorAdded(o)` and `InhibitorRemoved(o)` name each inhibitor, an
/// object with `GetAppId() → s`, `GetReason() → s` and `GetFlags() → u` on
/// `org.gnome.SessionManager.Inhibitor`. Busy while bit 8 is set; the
/// reason is the most recent idle inhibitor's.
final class GnomeSessionSource: InhibitorSource {
    static let busName = BusName("org.gnome.SessionManager")
    static let path = ObjectPath("/org/gnome/SessionManager")
    static let interface = "org.gnome.SessionManager"
    static let inhibitorInterface = InterfaceName("org.gnome.SessionManager.Inhibitor")
    /// `GSM_INHIBITOR_FLAG_IDLE` (gnome-session/gsm-inhibitor-flag.h).
    static let idleFlag: UInt32 = 8

    struct Inhibitor: Equatable {
        var app = "", why = "", flags: UInt32 = 0
    }

    let name = "GNOME's session manager"
    private(set) var present: Bool?
    var onChange: (() -> Void)?
    private let connection: Connection
    private let manager: BusNameFollower
    private let problem: (String) -> Void
    private var subscriptions: [SignalSubscription] = []
    private var inhibitedActions: UInt32 = 0
    /// Inhibitors whose three answers are in, by object path, in the order they came.
    private var inhibitors: [(path: String, value: Inhibitor)] = []
    /// Inhibitors being read; a removal meanwhile cancels the read.
    private var reading: Set<String> = []

    init(connection: Connection, problem: @escaping (String) -> Void) {
        self.connection = connection
        self.problem = problem
        manager = BusNameFollower(connection: connection, name: Self.busName)
    }

    var state: BusyState {
        guard inhibitedActions & Self.idleFlag != 0 else { return .free }
        let latest = inhibitors.last { $0.value.flags & Self.idleFlag != 0 }?.value
        return BusyState(active: true, source: "video", reason: latest.map { inhibitorReason(app: $0.app, why: $0.why) } ?? "")
    }

    func start() {
        subscriptions = [
            manager.subscribePropertiesChanged(path: Self.path, interface: Self.interface) { [weak self] message in
                self?.propertiesChanged(message)
            },
            subscribe("InhibitorAdded") { [weak self] path in self?.read(path) },
            subscribe("InhibitorRemoved") { [weak self] path in self?.remove(path) },
        ]
        manager.start { [weak self] owner in
            guard let self else { return }
            self.inhibitedActions = 0
            self.inhibitors = []
            self.reading = []
            self.present = owner != nil
            self.onChange?()
            guard owner != nil else { return }
            self.readInhibitedActions()
            self.readInhibitors()
        }
    }

    private func subscribe(_ member: String, _ handler: @escaping (String) -> Void) -> SignalSubscription {
        connection.subscribe(MatchRule(sender: Self.busName.rawValue, path: Self.path.rawValue, interface: Self.interface,
                                       member: member)) { [weak self] message in
            guard let path = message.body("o")?.first?.objectPath else {
                self?.problem("\(member) came with \(message.signatureForLog) instead of 'o'")
                return
            }
            handler(path.rawValue)
        }
    }

    private func propertiesChanged(_ message: Message) {
        guard let change = PropertiesChange(message) else { return problem("PropertiesChanged had the wrong shape") }
        switch change.news(about: "InhibitedActions") {
        case .none: break
        case .invalidated: readInhibitedActions()
        case .value(let v): setInhibitedActions(v.uint32)
        }
    }

    private func readInhibitedActions() {
        manager.getProperty(Self.path, Self.interface, "InhibitedActions") { [weak self] result in
            guard let self, case .success(let reply) = result else { return }
            self.setInhibitedActions(reply.single("v")?.uint32)
        }
    }

    private func setInhibitedActions(_ value: UInt32?) {
        guard let value else { return problem("InhibitedActions is not a 'u'") }
        guard value != inhibitedActions else { return }
        inhibitedActions = value
        onChange?()
    }

    private func readInhibitors() {
        manager.call(Self.path, InterfaceName(Self.interface), "GetInhibitors") { [weak self] result in
            guard let self, case .success(let reply) = result else { return }
            guard let paths = reply.single("ao")?.array?.compactMap(\.objectPath) else {
                return self.problem("GetInhibitors answered \(reply.signatureForLog) instead of 'ao'")
            }
            for path in paths { self.read(path.rawValue) }
        }
    }

    /// Reads one inhibitor's flags, app id and reason, one after the other.
    private func read(_ path: String) {
        guard !reading.contains(path), !inhibitors.contains(where: { $0.path == path }) else { return }
        reading.insert(path)
        var found = Inhibitor()
        ask(path, "GetFlags", "u") { [weak self] v in
            found.flags = v.uint32 ?? 0
            self?.ask(path, "GetAppId", "s") { v in
                found.app = v.string ?? ""
                self?.ask(path, "GetReason", "s") { v in
                    found.why = v.string ?? ""
                    guard let self, self.reading.remove(path) != nil else { return }
                    self.inhibitors.append((path, found))
                    if found.flags & Self.idleFlag != 0 { self.onChange?() }
                }
            }
        }
    }

    private func ask(_ path: String, _ method: String, _ signature: String, _ next: @escaping (DBusValue) -> Void) {
        manager.call(ObjectPath(path), Self.inhibitorInterface, method) { [weak self] result in
            guard let self, self.reading.contains(path) else { return }
            guard case .success(let reply) = result, let value = reply.single(signature) else {
                // Gone before it could be read (released at once): nothing to show.
                self.reading.remove(path)
                return
            }
            next(value)
        }
    }

    private func remove(_ path: String) {
        reading.remove(path)
        guard let i = inhibitors.firstIndex(where: { $0.path == path }) else { return }
        inhibitors.remove(at: i)
        onChange?()
    }
}
