import DBusKit
import SystemdKit
import ReminderCore
import Localization

/// The names of the service on the bus.
public enum ReminderBus {
    public static let name = BusName("org.icare.Reminder")
    public static let path = ObjectPath("/org/icare/Reminder")
    public static let interface = InterfaceName("org.icare.Reminder")

    /// The sentence shown when the service is neither running nor activatable.
    public static var notRunning: String { tr("iCare is not running; start it with 'systemctl --user start icared' (or run 'icared').") }

    /// Turns a D-Bus error into the one sentence a person sees.
    public static func explain(_ e: DBusError) -> CLIError {
        switch e.name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return .failure(notRunning)
        case _ where e.name.hasPrefix("org.freedesktop.DBus.Error.Spawn."):
            // The bus's own words (e.message) name the service's bus name and the activation; the person is sent
            // where the reason is said in full.
            return .failure(tr("iCare could not be started; try 'systemctl --user start icared' and see 'journalctl --user -u icared'."))
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut":
            return .failure(tr("iCare did not answer in time."))
        case "org.freedesktop.DBus.Error.Disconnected":
            return .failure(tr("The connection to your desktop session was lost."))
        default:
            return .failure(e.message.isEmpty ? e.name : e.message)
        }
    }

    /// `GetHistory`'s arguments (`t from, t to`).
    package static func historyArguments(from: Timestamp, to: Timestamp) -> [DBusValue] {
        [.uint64(UInt64(max(0, from))), .uint64(UInt64(max(0, to)))]
    }

    /// The records in a `GetHistory` reply (`a(tsu)`); malformed entries are left out.
    package static func records(_ reply: [DBusValue]) -> [BreakRecord] {
        (reply.first?.array ?? []).compactMap { item in
            guard let m = item.structure, m.count == 3, let at = m[0].uint64, let outcome = m[1].string, let seconds = m[2].uint32 else { return nil }
            return BreakRecord(at: Timestamp(clamping: at), outcome: Outcome(rawValue: outcome), seconds: seconds)
        }
    }

    package static func methodCall(_ member: String, _ args: [DBusValue] = []) -> Message {
        Message.methodCall(destination: name, path: path, interface: interface, member: MemberName(member), arguments: args)
    }

    package static func propertiesCall(_ member: String, _ args: [DBusValue]) -> Message {
        Message.methodCall(destination: name, path: path, interface: .properties, member: MemberName(member), arguments: args)
    }
}

/// Blocking calls to the service, for the one-shot commands.
public final class ReminderProxy {
    public let connection: Connection
    package let timeoutMs: Int32 = 15_000

    /// Connects to the session bus.
    public init(loop: EventLoop) throws(CLIError) {
        connection = try ReminderProxy.connect(loop: loop)
    }

    package static func connect(loop: EventLoop) throws(CLIError) -> Connection {
        do {
            return try Connection(bus: .session, loop: loop)
        } catch {
            throw .failure(tr("Could not reach your desktop session (%s); run icarectl inside the session where iCare runs.", error.message.isEmpty ? error.name : error.message))
        }
    }

    /// Calls a method of `org.icare.Reminder`; returns the reply's arguments.
    @discardableResult
    public func call(_ member: String, _ args: [DBusValue] = []) throws(CLIError) -> [DBusValue] {
        try send(ReminderBus.methodCall(member, args))
    }

    package func send(_ message: Message) throws(CLIError) -> [DBusValue] {
        do {
            return try connection.callBlocking(message, timeoutMs: timeoutMs).arguments()
        } catch {
            throw ReminderBus.explain(error)
        }
    }

    /// Every property (`Properties.GetAll`).
    public func getAll() throws(CLIError) -> [String: DBusValue] {
        let reply = try send(ReminderBus.propertiesCall("GetAll", [.string(ReminderBus.interface.rawValue)]))
        guard let dict = reply.first?.stringDictionary else { throw .failure(tr("iCare sent an unexpected reply.")) }
        return dict
    }

    /// The status snapshot.
    public func status() throws(CLIError) -> ServiceStatus { ServiceStatus(properties: try getAll()) }

    /// One property (`Properties.Get`).
    public func get(_ property: String) throws(CLIError) -> DBusValue {
        let reply = try send(ReminderBus.propertiesCall("Get", [.string(ReminderBus.interface.rawValue), .string(property)]))
        guard let v = reply.first else { throw .failure(tr("iCare sent an unexpected reply.")) }
        return v.unwrapped
    }

    /// Writes a setting (`Properties.Set`) with its D-Bus type.
    public func set(_ key: SettingKey, _ value: SettingValue) throws(CLIError) {
        _ = try send(ReminderBus.propertiesCall("Set", [.string(ReminderBus.interface.rawValue), .string(key.name), .variant(value.dbus)]))
    }

    /// `GetHistory(from, to)`.
    public func history(from: Timestamp, to: Timestamp) throws(CLIError) -> [BreakRecord] {
        ReminderBus.records(try call("GetHistory", ReminderBus.historyArguments(from: from, to: to)))
    }
}
