import DBusKit
import DesktopWatch

/// The skeleton every do-not-disturb watcher on a provider's own bus name
/// shares (swaync, XFCE's xfconf, and the notification servers' KDE, dunst
/// and mako through `ServerPropertyWatcher`): the change signals are
/// subscribed before the name is followed, so none is missed; each new owner
/// starts unknown (`absent`) until it answers a read as this provider; a
/// signal counts only from an identified owner, and one of the wrong shape,
/// like a garbled answer, is said once and taken as do-not-disturb off.
class FollowedProviderWatcher: DndWatcher {
    let source: String
    let context: WatcherContext
    let server: BusNameFollower
    /// Whether the current owner answered as this provider.
    var identified = false
    private var changes: [SignalSubscription] = []

    init(source: String, context: WatcherContext, name: BusName) {
        self.source = source
        self.context = context
        server = BusNameFollower(connection: context.connection, name: name)
    }

    /// The provider's change signals; subclasses subscribe them.
    func subscribe() -> [SignalSubscription] { [] }

    /// A new owner of the name: subclasses read its state (and end with `looked`).
    func ownerAppeared() { looked() }

    final func start() {
        changes = subscribe()
        server.start { [weak self] owner in
            guard let self else { return }
            self.identified = false
            self.report(.absent)
            if owner != nil { self.ownerAppeared() } else { self.looked() }
        }
    }

    /// Subscribes `member` of the provider at `path` / `interface` (with `arg0`, when given).
    final func subscribe(_ path: ObjectPath, _ interface: InterfaceName, _ member: String, arg0: String? = nil,
                         _ handler: @escaping (Message) -> Void) -> SignalSubscription {
        context.connection.subscribe(MatchRule(sender: server.name.rawValue, path: path.rawValue,
                                               interface: interface.rawValue, member: member, arg0: arg0), handler)
    }

    /// The arguments of a change signal from the identified provider, whose shapes `signatures` gives by
    /// member; nil for another signal, or (said, and taken as off) for one of another shape.
    final func arguments(of message: Message, _ signatures: [String: String]) -> (member: String, values: [DBusValue])? {
        guard identified, let member = message.member, let expected = signatures[member] else { return nil }
        guard message.signature == expected, let values = try? message.arguments() else {
            problem(.signal, "\(member) came with \(message.signatureForLog) instead of '\(expected)'")
            report(.present(dnd: false))
            return nil
        }
        return (member, values)
    }

    /// Reports what the provider said: `dnd`, or (nil: an answer it cannot understand) off, with `problem` said.
    final func settle(_ dnd: Bool?, _ kind: ProblemKind, _ problem: @autoclosure () -> String) {
        guard let dnd else {
            self.problem(kind, problem())
            return report(.present(dnd: false))
        }
        report(.present(dnd: dnd))
    }
}
