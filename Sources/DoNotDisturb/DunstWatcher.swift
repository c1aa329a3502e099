import DBusKit

/// dunst: the `paused` (b) property of `org.dunstproject.cmd0` at
/// `/org/freedesktop/Notifications` on `org.freedesktop.Notifications`;
/// `dunstctl set-paused` changes it through `Properties.Set`, which emits
/// `PropertiesChanged` with the value. (dunst 1.9 paused by SIGUSR1 emits
/// nothing; that cannot be seen without polling, and we do not poll.)
final class DunstWatcher: DndWatcher {
    let source = DndSource.dunst
    let context: WatcherContext
    private let server: BusNameFollower
    private var changes: SignalSubscription?
    private var identified = false

    static let path = ObjectPath("/org/freedesktop/Notifications")
    static let interface = "org.dunstproject.cmd0"

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
            if owner != nil { self.readPaused() } else { self.looked() }
        }
    }

    private func readPaused() {
        server.getProperty(Self.path, Self.interface, "paused") { [weak self] result in
            guard let self else { return }
            defer { self.looked() }
            // An error means the server has no dunst interface: another server owns the name.
            guard case .success(let reply) = result else {
                self.identified = false
                self.report(.absent)
                return
            }
            self.identified = true
            guard let paused = reply.single("v")?.bool else {
                self.problem(.reply, "Get(paused) answered a value that is not a boolean")
                self.report(.present(dnd: false))
                return
            }
            self.report(.present(dnd: paused))
        }
    }

    private func changed(_ message: Message) {
        guard identified else { return }
        guard let change = PropertiesChange(message) else {
            problem(.signal, "PropertiesChanged came with \(message.signatureForLog) instead of '\(PropertiesChange.signature)'")
            report(.present(dnd: false))
            return
        }
        switch change.news(about: "paused") {
        case .none: break
        case .invalidated: readPaused()
        case .value(let value):
            guard let paused = value.bool else {
                problem(.signal, "PropertiesChanged gave paused a value that is not a boolean")
                report(.present(dnd: false))
                return
            }
            report(.present(dnd: paused))
        }
    }
}
