import DBusKit

/// Follows the owner of a well-known name and sends calls to that owner
/// (its unique name), dropping replies that arrive after the owner changed,
/// so a late answer from a vanished server never overrides the new one.
public final class BusNameFollower {
    public let name: BusName
    private let connection: Connection
    /// The unique name of the current owner, nil when none.
    public private(set) var owner: String?
    private var generation = 0
    private var watch: NameWatch?

    public init(connection: Connection, name: BusName) {
        self.connection = connection
        self.name = name
    }

    /// Starts following; `changed` runs with the initial owner and on every change.
    public func start(_ changed: @escaping (String?) -> Void) {
        watch = connection.watchName(name) { [weak self] owner in
            guard let self else { return }
            self.generation += 1
            self.owner = owner
            changed(owner)
        }
    }

    /// Calls a method on the current owner; `reply` runs only while that owner still holds the name.
    public func call(_ path: ObjectPath, _ interface: InterfaceName, _ member: String, _ arguments: [DBusValue] = [],
              reply: @escaping (Result<Message, DBusError>) -> Void) {
        guard let owner, let destination = BusName(rawValue: owner) else { return }
        let asked = generation
        let message = Message.methodCall(destination: destination, path: path, interface: interface,
                                         member: MemberName(member), arguments: arguments)
        connection.call(message, timeoutMs: 10_000) { [weak self] result in
            guard let self, self.generation == asked else { return }
            reply(result)
        }
    }

    /// `org.freedesktop.DBus.Properties.Get` on the current owner.
    public func getProperty(_ path: ObjectPath, _ interface: String, _ property: String,
                     reply: @escaping (Result<Message, DBusError>) -> Void) {
        call(path, .properties, "Get", [.string(interface), .string(property)], reply: reply)
    }

    /// Subscribes to `PropertiesChanged` for `interface` at `path`, sent by the owner of this name.
    public func subscribePropertiesChanged(path: ObjectPath, interface: String,
                                    _ handler: @escaping (Message) -> Void) -> SignalSubscription {
        connection.subscribe(MatchRule(sender: name.rawValue, path: path.rawValue, interface: InterfaceName.properties.rawValue,
                                       member: "PropertiesChanged", arg0: interface), handler)
    }
}
