import DBusKit
import DesktopWatch

/// XFCE: xfconf channel `xfce4-notifyd`, property `/do-not-disturb` (b),
/// read with `GetProperty(s, s) → v` on `org.xfce.Xfconf` at `/org/xfce/Xfconf`
/// (the error `org.xfce.Xfconf.Error.PropertyNotFound` means false), followed
/// through `PropertyChanged(s, s, v)` and `PropertyRemoved(s, s)`.
final class XfceWatcher: DndWatcher {
    let source = DndSource.xfce
    let context: WatcherContext
    private let server: BusNameFollower
    private var changes: [SignalSubscription] = []
    private var identified = false

    static let path = ObjectPath("/org/xfce/Xfconf")
    static let interface = InterfaceName("org.xfce.Xfconf")
    static let channel = "xfce4-notifyd"
    static let property = "/do-not-disturb"
    static let notFound = "org.xfce.Xfconf.Error.PropertyNotFound"
    static let signatures = ["PropertyChanged": "ssv", "PropertyRemoved": "ss"]

    init(context: WatcherContext) {
        self.context = context
        server = BusNameFollower(connection: context.connection, name: BusName("org.xfce.Xfconf"))
    }

    func start() {
        changes = Self.signatures.keys.sorted().map { member in
            context.connection.subscribe(MatchRule(sender: server.name.rawValue, path: Self.path.rawValue,
                                                   interface: Self.interface.rawValue, member: member, arg0: Self.channel)) { [weak self] in
                self?.changed($0)
            }
        }
        server.start { [weak self] owner in
            guard let self else { return }
            self.identified = false
            self.report(.absent)
            if owner != nil { self.readProperty() } else { self.looked() }
        }
    }

    private func readProperty() {
        server.call(Self.path, Self.interface, "GetProperty", [.string(Self.channel), .string(Self.property)]) { [weak self] result in
            guard let self else { return }
            defer { self.looked() }
            self.identified = true
            switch result {
            case .failure(let error) where error.name == Self.notFound:
                self.report(.present(dnd: false))
            case .failure(let error):
                self.problem(.reply, "GetProperty(\(Self.channel), \(Self.property)) failed: \(error)")
                self.report(.present(dnd: false))
            case .success(let reply):
                self.interpret(reply.single("v"), what: "GetProperty answered")
            }
        }
    }

    private func changed(_ message: Message) {
        guard identified, let member = message.member, let expected = Self.signatures[member] else { return }
        guard message.signature == expected, let args = try? message.arguments() else {
            problem(.signal, "\(member) came with \(message.signatureForLog) instead of '\(expected)'")
            report(.present(dnd: false))
            return
        }
        guard args[1].string == Self.property else { return }
        if member == "PropertyRemoved" {
            report(.present(dnd: false))
        } else {
            interpret(args[2].unwrapped, what: "PropertyChanged gave")
        }
    }

    private func interpret(_ value: DBusValue?, what: String) {
        guard let dnd = value?.bool else {
            problem(.value, "\(what) \(Self.property) a value that is not a boolean")
            report(.present(dnd: false))
            return
        }
        report(.present(dnd: dnd))
    }
}
