import DBusKit

/// One property of the state iCare's GNOME Shell extension serves while it is
/// enabled: the name `org.icare.Reminder.ShellRing`, the object
/// `/org/icare/Reminder/ShellRing`, the interface of the same name
/// (docs/interface.md, "Behaviour worth knowing": One ring in the top bar).
/// Followed through the name's owner and `PropertiesChanged`, read again when a
/// new owner appears or the value is only invalidated; never polled.
public final class ShellStateProperty {
    public static let busName = BusName("org.icare.Reminder.ShellRing")
    public static let path = ObjectPath("/org/icare/Reminder/ShellRing")
    public static let interface = "org.icare.Reminder.ShellRing"

    /// What is known of the property.
    public enum Reading {
        /// No extension owns the name.
        case absent
        /// The owner does not answer with the property (an older extension); said to `problem`.
        case unreadable
        case value(DBusValue)
    }

    public let property: String
    private let shell: BusNameFollower
    private let problem: (String) -> Void
    private var subscription: SignalSubscription?

    /// `problem` gets one sentence for an answer or signal of the wrong shape.
    public init(connection: Connection, property: String, problem: @escaping (String) -> Void) {
        self.property = property
        self.problem = problem
        shell = BusNameFollower(connection: connection, name: Self.busName)
    }

    /// Starts following; `changed` runs with the first reading and with every change after it.
    public func start(_ changed: @escaping (Reading) -> Void) {
        subscription = shell.subscribePropertiesChanged(path: Self.path, interface: Self.interface) { [weak self] message in
            guard let self else { return }
            guard let change = PropertiesChange(message) else { return self.problem("PropertiesChanged had the wrong shape") }
            switch change.news(about: self.property) {
            case .none: break
            case .invalidated: self.read(changed)
            case .value(let value): changed(.value(value))
            }
        }
        shell.start { [weak self] owner in
            if owner == nil { changed(.absent) } else { self?.read(changed) }
        }
    }

    private func read(_ changed: @escaping (Reading) -> Void) {
        shell.getProperty(Self.path, Self.interface, property) { [weak self] result in
            guard let self else { return }
            guard case .success(let reply) = result, let value = reply.single("v") else {
                self.problem("\(self.property) could not be read")
                return changed(.unreadable)
            }
            changed(.value(value))
        }
    }
}
