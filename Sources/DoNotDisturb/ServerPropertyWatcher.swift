import DBusKit
import DesktopWatch

/// A do-not-disturb provider that lives inside the notification server:
/// KDE Plasma, dunst and mako all own `org.freedesktop.Notifications`, so
/// each is identified by its own read being answered (an error reply means
/// "another server"), then followed through `PropertiesChanged` of one
/// property at `path` / `interface` (re-read when only invalidated).
/// Subclasses say how to read and how to understand the value.
class ServerPropertyWatcher: FollowedProviderWatcher {
    let path: ObjectPath
    let interface: String
    /// The property whose change is announced.
    let property: String

    init(source: String, context: WatcherContext, path: ObjectPath, interface: String, property: String) {
        self.path = path
        self.interface = interface
        self.property = property
        super.init(source: source, context: context, name: BusName("org.freedesktop.Notifications"))
    }

    override func subscribe() -> [SignalSubscription] {
        [server.subscribePropertiesChanged(path: path, interface: interface) { [weak self] in self?.changed($0) }]
    }

    /// A new server owns the name; by default read at once. (KDE first checks its capabilities.)
    override func ownerAppeared() { read() }

    /// Sends the read; the default gets `property` through `Properties.Get`.
    func fetch(_ done: @escaping (Result<Message, DBusError>) -> Void) {
        server.getProperty(path, interface, property, reply: done)
    }

    /// Do-not-disturb from the read's reply; nil when the reply is garbage.
    func dnd(fromReply reply: Message) -> Bool? { reply.single("v").flatMap(dnd(fromValue:)) }

    /// Do-not-disturb from the property's value; nil when it has the wrong type.
    func dnd(fromValue value: DBusValue) -> Bool? { value.bool }

    /// Reads the current state; the first answer is this watcher's first look.
    final func read() {
        fetch { [weak self] result in
            guard let self else { return }
            defer { self.looked() }
            guard case .success(let reply) = result else {
                self.identified = false
                self.report(.absent)
                return
            }
            self.identified = true
            self.settle(self.dnd(fromReply: reply), .reply,
                        "reading \(self.property) answered \(reply.signatureForLog), which it cannot understand")
        }
    }

    private func changed(_ message: Message) {
        guard identified else { return }
        guard let change = PropertiesChange(message) else {
            problem(.signal, "PropertiesChanged came with \(message.signatureForLog) instead of '\(PropertiesChange.signature)'")
            report(.present(dnd: false))
            return
        }
        switch change.news(about: property) {
        case .none: break
        case .invalidated: read()
        case .value(let value):
            settle(dnd(fromValue: value), .signal, "PropertiesChanged gave \(property) a value of the wrong type")
        }
    }
}
