import DBusKit
import DesktopWatch

/// SwayNotificationCenter: `GetDnd() → b` on `org.erikreider.swaync.cc`
/// (path and interface of the same name); the state also comes with every
/// `Subscribe(u count, b dnd, b cc_open)` (up to 0.7) and
/// `SubscribeV2(u count, b dnd, b cc_open, b inhibited)` (from 0.8).
final class SwayncWatcher: FollowedProviderWatcher {
    static let path = ObjectPath("/org/erikreider/swaync/cc")
    static let interface = InterfaceName("org.erikreider.swaync.cc")
    static let signatures = ["Subscribe": "ubb", "SubscribeV2": "ubbb"]

    init(context: WatcherContext) {
        super.init(source: DndSource.swaync, context: context, name: BusName("org.erikreider.swaync.cc"))
    }

    override func subscribe() -> [SignalSubscription] {
        Self.signatures.keys.sorted().map { member in
            subscribe(Self.path, Self.interface, member) { [weak self] in self?.changed($0) }
        }
    }

    override func ownerAppeared() {
        server.call(Self.path, Self.interface, "GetDnd") { [weak self] result in
            guard let self else { return }
            defer { self.looked() }
            self.identified = true
            switch result {
            case .failure(let error):
                self.settle(nil, .reply, "GetDnd failed: \(error)")
            case .success(let reply):
                self.settle(reply.single("b")?.bool, .reply, "GetDnd answered \(reply.signatureForLog) instead of 'b'")
            }
        }
    }

    private func changed(_ message: Message) {
        guard let (member, args) = arguments(of: message, Self.signatures) else { return }
        settle(args[1].bool, .signal, "\(member) came with \(message.signatureForLog) instead of '\(Self.signatures[member] ?? "")'")
    }
}
