import DBusKit
import DesktopWatch

/// XFCE: xfconf channel `xfce4-notifyd`, property `/do-not-disturb` (b),
/// read with `GetProperty(s, s) → v` on `org.xfce.Xfconf` at `/org/xfce/Xfconf`
/// (the error `org.xfce.Xfconf.Error.PropertyNotFound` means false), followed
/// through `PropertyChanged(s, s, v)` and `PropertyRemoved(s, s)`.
final class XfceWatcher: FollowedProviderWatcher {
    static let path = ObjectPath("/org/xfce/Xfconf")
    static let interface = InterfaceName("org.xfce.Xfconf")
    static let channel = "xfce4-notifyd"
    static let property = "/do-not-disturb"
    static let notFound = "org.xfce.Xfconf.Error.PropertyNotFound"
    static let signatures = ["PropertyChanged": "ssv", "PropertyRemoved": "ss"]

    init(context: WatcherContext) {
        super.init(source: DndSource.xfce, context: context, name: BusName("org.xfce.Xfconf"))
    }

    override func subscribe() -> [SignalSubscription] {
        Self.signatures.keys.sorted().map { member in
            subscribe(Self.path, Self.interface, member, arg0: Self.channel) { [weak self] in self?.changed($0) }
        }
    }

    override func ownerAppeared() {
        server.call(Self.path, Self.interface, "GetProperty", [.string(Self.channel), .string(Self.property)]) { [weak self] result in
            guard let self else { return }
            defer { self.looked() }
            self.identified = true
            switch result {
            case .failure(let error) where error.name == Self.notFound:
                self.report(.present(dnd: false))
            case .failure(let error):
                self.settle(nil, .reply, "GetProperty(\(Self.channel), \(Self.property)) failed: \(error)")
            case .success(let reply):
                self.interpret(reply.single("v"), what: "GetProperty answered")
            }
        }
    }

    private func changed(_ message: Message) {
        guard let (member, args) = arguments(of: message, Self.signatures), args[1].string == Self.property else { return }
        if member == "PropertyRemoved" {
            report(.present(dnd: false))
        } else {
            interpret(args[2].unwrapped, what: "PropertyChanged gave")
        }
    }

    private func interpret(_ value: DBusValue?, what: String) {
        settle(value?.bool, .value, "\(what) \(Self.property) a value that is not a boolean")
    }
}
