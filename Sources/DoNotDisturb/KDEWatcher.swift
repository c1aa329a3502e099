import DBusKit

/// KDE Plasma: the `Inhibited` (b) property of `org.freedesktop.Notifications`,
/// on a server that lists the `inhibitions` capability; changes come as
/// `PropertiesChanged` with the value.
///
/// Any inhibition is the person's: Plasma's DND switch and apps that inhibit
/// (a presentation, a video call) set it. iCare itself never calls `Inhibit`,
/// so there is no inhibition of ours to subtract.
final class KDEWatcher: DndWatcher {
    let source = DndSource.kde
    let context: WatcherContext
    private let server: BusNameFollower
    private var changes: SignalSubscription?
    /// Whether the current owner is known to be Plasma's server.
    private var identified = false

    static let path = ObjectPath("/org/freedesktop/Notifications")
    static let interface = "org.freedesktop.Notifications"

    init(context: WatcherContext) {
        self.context = context
        server = BusNameFollower(connection: context.connection, name: BusName("org.freedesktop.Notifications"))
    }

    func start() {
        changes = server.subscribePropertiesChanged(path: Self.path, interface: Self.interface) { [weak self] in self?.changed($0) }
        server.start { [weak self] owner in self?.ownerChanged(owner) }
    }

    private func ownerChanged(_ owner: String?) {
        identified = false
        report(.absent)
        guard owner != nil else { return looked() }
        server.call(Self.path, InterfaceName(Self.interface), "GetCapabilities") { [weak self] result in
            guard let self else { return }
            guard case .success(let reply) = result else { return self.looked() }
            guard let capabilities = reply.single("as")?.strings else {
                self.problem(.reply, "GetCapabilities answered \(reply.signatureForLog) instead of 'as'")
                return self.looked()
            }
            // Only a server with inhibitions has a meaningful Inhibited property.
            if capabilities.contains("inhibitions") { self.readInhibited() } else { self.looked() }
        }
    }

    private func readInhibited() {
        server.getProperty(Self.path, Self.interface, "Inhibited") { [weak self] result in
            guard let self else { return }
            defer { self.looked() }
            switch result {
            case .failure:
                // Lists inhibitions but has no such property: not Plasma.
                self.identified = false
                self.report(.absent)
            case .success(let reply):
                self.identified = true
                guard let inhibited = reply.single("v")?.bool else {
                    self.problem(.reply, "Get(Inhibited) answered a value that is not a boolean")
                    self.report(.present(dnd: false))
                    return
                }
                self.report(.present(dnd: inhibited))
            }
        }
    }

    private func changed(_ message: Message) {
        guard identified else { return }
        guard let change = PropertiesChange(message) else {
            problem(.signal, "PropertiesChanged came with \(message.signatureForLog) instead of '\(PropertiesChange.signature)'")
            report(.present(dnd: false))
            return
        }
        switch change.news(about: "Inhibited") {
        case .none: break
        case .invalidated: readInhibited()
        case .value(let value):
            guard let inhibited = value.bool else {
                problem(.signal, "PropertiesChanged gave Inhibited a value that is not a boolean")
                report(.present(dnd: false))
                return
            }
            report(.present(dnd: inhibited))
        }
    }
}
