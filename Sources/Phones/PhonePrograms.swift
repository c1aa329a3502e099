import DBusKit
import DesktopWatch

/// The two programs that link phones, KDE Connect's daemon and GSConnect, each
/// followed once on the session bus. The reminders (`PhoneReminders`) and the
/// remote (`PhoneRemote`) both take the same `PhonePrograms`, so a program that
/// leaves and comes back is seen once, and a reply from an owner that left is
/// dropped for both (docs/architecture.md, "Targets", its `Phones`).
public final class PhonePrograms {
    public let kdeConnect: PhoneProgram
    public let gsConnect: PhoneProgram

    public init(connection: Connection) {
        kdeConnect = PhoneProgram(connection: connection, name: KDEConnectBus.name)
        gsConnect = PhoneProgram(connection: connection, name: GSConnectPhones.busName)
    }
}

/// One program that links phones: the follower of its bus name, shared by
/// everyone who talks to it. Each of them hears every change of its owner.
public final class PhoneProgram {
    /// The follower: calls go to the current owner, and a reply from an owner that left is dropped.
    public let server: BusNameFollower
    private var listeners: [(String?) -> Void] = []
    /// Whether the owner has been reported yet (a listener added later hears it at once).
    private var reported = false

    init(connection: Connection, name: BusName) {
        server = BusNameFollower(connection: connection, name: name)
    }

    /// `changed` runs with the owner once it is known and on every change, after the listeners
    /// added before it; the first listener starts following the name.
    public func follow(_ changed: @escaping (String?) -> Void) {
        listeners.append(changed)
        if listeners.count == 1 {
            server.start { [unowned self] owner in
                self.reported = true
                for listener in self.listeners { listener(owner) }
            }
        } else if reported {
            changed(server.owner)
        }
    }
}
