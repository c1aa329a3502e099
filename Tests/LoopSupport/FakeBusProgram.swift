import DBusKit
import SystemdKit
import TestSupport

/// A fake desktop program on a private bus, with its own connection and
/// exactly the D-Bus shape of the real one (docs/desktop-facts.md): subclasses
/// describe its objects. Its state survives `vanish()` and `appear()`, so a
/// test can make the program quit and come back. Touched only on the loop thread.
open class FakeBusProgram {
    public let busName: String
    public private(set) var connection: Connection?
    /// The objects of the current appearance, by path.
    public private(set) var objects: [String: ExportedObject] = [:]

    public init(busName: String) { self.busName = busName }

    /// The objects to serve; subclasses describe them.
    open func makeObjects() -> [ExportedObject] { [] }

    /// Connects, serves the objects, then takes the bus name.
    public func appear(address: String, loop: EventLoop) throws {
        let c = try Connection(address: address, loop: loop)
        objects = [:]
        for object in makeObjects() {
            c.export(object)
            objects[object.path.rawValue] = object
        }
        guard try c.requestName(BusName(busName)) == .primaryOwner else { throw HarnessError("\(busName) is taken") }
        connection = c
    }

    /// Appears on `thread`'s loop, from another thread; the thread keeps the
    /// fake until it stops and makes it vanish there, on the loop thread, so
    /// its connection never ends on a test's thread while the loop runs.
    public func appear(on thread: LoopThread, address: String) throws {
        try thread.sync {
            try self.appear(address: address, loop: thread.loop)
            thread.keepUntilStop(self) { self.vanish() }
        }
    }

    /// Leaves the bus; the name goes with the connection.
    public func vanish() {
        connection?.close()
        connection = nil
        objects = [:]
    }

    /// The object served at `path`, while on the bus.
    public func object(_ path: String) -> ExportedObject? { objects[path] }

    /// Sends a signal of any shape (also a wrong one, for garbage tests).
    public func sendSignal(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue]) {
        connection?.send(.signal(path: ObjectPath(path), interface: InterfaceName(interface), member: MemberName(member), arguments: arguments))
    }
}
