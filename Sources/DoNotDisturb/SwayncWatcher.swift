import DBusKit
import DesktopWatch

/// SwayNotificationCenter: `GetDnd() → b` on `org.erikreider.swaync.cc`
/// (path and interface of the same name); the state also comes with every
/// `Subscribe(u count, b dnd, b cc_open)` (up to 0.7) and
/// `SubscribeV2(u count, b dnd, b cc_open, b inhibited)` (from 0.8).
final class SwayncWatcher: DndWatcher {
    let source = DndSource.swaync
    let context: WatcherContext
    private let server: BusNameFollower
    private var changes: [SignalSubscription] = []
    private var identified = false

    static let path = ObjectPath("/org/erikreider/swaync/cc")
    static let interface = InterfaceName("org.erikreider.swaync.cc")
    static let signatures = ["Subscribe": "ubb", "SubscribeV2": "ubbb"]

    init(context: WatcherContext) {
        self.context = context
        server = BusNameFollower(connection: context.connection, name: BusName("org.erikreider.swaync.cc"))
    }

    func start() {
        changes = Self.signatures.keys.sorted().map { member in
            context.connection.subscribe(MatchRule(sender: server.name.rawValue, path: Self.path.rawValue,
                                                   interface: Self.interface.rawValue, member: member)) { [weak self] in
                self?.changed($0)
            }
        }
        server.start { [weak self] owner in
            guard let self else { return }
            self.identified = false
            self.report(.absent)
            if owner != nil { self.readDnd() } else { self.looked() }
        }
    }

    private func readDnd() {
        server.call(Self.path, Self.interface, "GetDnd") { [weak self] result in
            guard let self else { return }
            defer { self.looked() }
            self.identified = true
            switch result {
            case .failure(let error):
                self.problem(.reply, "GetDnd failed: \(error)")
                self.report(.present(dnd: false))
            case .success(let reply):
                guard let dnd = reply.single("b")?.bool else {
                    self.problem(.reply, "GetDnd answered \(reply.signatureForLog) instead of 'b'")
                    self.report(.present(dnd: false))
                    return
                }
                self.report(.present(dnd: dnd))
            }
        }
    }

    private func changed(_ message: Message) {
        guard identified, let member = message.member, let expected = Self.signatures[member] else { return }
        guard message.signature == expected, let args = try? message.arguments(), let dnd = args[1].bool else {
            problem(.signal, "\(member) came with \(message.signatureForLog) instead of '\(expected)'")
            report(.present(dnd: false))
            return
        }
        report(.present(dnd: dnd))
    }
}
