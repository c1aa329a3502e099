import DBusKit

/// mako: DND is a mode the person names `do-not-disturb`. `ListModes() → as`
/// on `fr.emersion.Mako` at `/fr/emersion/Mako` (bus `org.freedesktop.Notifications`);
/// from mako 1.10 the `Modes` property is invalidated through
/// `PropertiesChanged` (no value) and read again. Older mako sends no signal,
/// so a mode change there is seen only when mako restarts.
final class MakoWatcher: DndWatcher {
    let source = DndSource.mako
    let context: WatcherContext
    private let server: BusNameFollower
    private var changes: SignalSubscription?
    private var identified = false

    static let path = ObjectPath("/fr/emersion/Mako")
    static let interface = "fr.emersion.Mako"
    static let mode = "do-not-disturb"

    init(context: WatcherContext) {
        self.context = context
        server = BusNameFollower(connection: context.connection, name: BusName("org.freedesktop.Notifications"))
    }

    func start() {
        changes = server.subscribePropertiesChanged(path: Self.path, interface: Self.interface) { [weak self] in self?.changed($0) }
        server.start { [weak self] owner in
            guard let self else { return }
            self.identified = false
            self.report(.absent)
            if owner != nil { self.readModes() } else { self.looked() }
        }
    }

    private func readModes() {
        server.call(Self.path, InterfaceName(Self.interface), "ListModes") { [weak self] result in
            guard let self else { return }
            defer { self.looked() }
            // An error means no mako object: another server owns the name.
            guard case .success(let reply) = result else {
                self.identified = false
                self.report(.absent)
                return
            }
            self.identified = true
            guard let modes = reply.single("as")?.strings else {
                self.problem(.reply, "ListModes answered \(reply.signatureForLog) instead of 'as'")
                self.report(.present(dnd: false))
                return
            }
            self.report(.present(dnd: modes.contains(Self.mode)))
        }
    }

    private func changed(_ message: Message) {
        guard identified else { return }
        guard let change = PropertiesChange(message) else {
            problem(.signal, "PropertiesChanged came with \(message.signatureForLog) instead of '\(PropertiesChange.signature)'")
            report(.present(dnd: false))
            return
        }
        switch change.news(about: "Modes") {
        case .none: break
        case .invalidated: readModes()
        case .value(let value):
            guard case .array(element: "s", _) = value, let modes = value.strings else {
                problem(.signal, "PropertiesChanged gave Modes a value that is not a list of strings")
                report(.present(dnd: false))
                return
            }
            report(.present(dnd: modes.contains(Self.mode)))
        }
    }
}
