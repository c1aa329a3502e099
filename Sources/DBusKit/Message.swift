import CDBus

/// A D-Bus message (owns one reference to a `DBusMessage`).
public final class Message {
    /// The `DBusMessage*`.
    public let raw: OpaquePointer

    /// Adopts a reference the caller owns.
    init(adopting raw: OpaquePointer) { self.raw = raw }

    /// Takes an extra reference (dbus_message_ref).
    init(retaining raw: OpaquePointer) {
        dbus_message_ref(raw)
        self.raw = raw
    }

    deinit { dbus_message_unref(raw) }

    /// The message kinds.
    public enum Kind: Int32, Sendable { case invalid = 0, methodCall = 1, methodReturn = 2, error = 3, signal = 4 }

    public var kind: Kind { Kind(rawValue: dbus_message_get_type(raw)) ?? .invalid }
    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    public var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    public var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    /// The signature of the body, `""` when empty.
    public var signature: String { dbus_message_get_signature(raw).map { String(cString: $0) } ?? "" }
    public var serial: UInt32 { dbus_message_get_serial(raw) }
    public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }
    /// Whether the caller said it wants no reply.
    public var noReply: Bool { dbus_message_get_no_reply(raw) != 0 }

    /// Whether this is `interface.member` of the given kind.
    public func isSignal(_ interface: String, _ member: String) -> Bool {
        dbus_message_is_signal(raw, interface, member) != 0
    }
    public func isMethodCall(_ interface: String, _ member: String) -> Bool {
        dbus_message_is_method_call(raw, interface, member) != 0
    }

    // MARK: making messages

    /// A method call (dbus_message_new_method_call).
    public static func methodCall(destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName, arguments: [DBusValue] = []) -> Message {
        let m = Message(adopting: dbus_message_new_method_call(destination?.rawValue, path.rawValue, interface?.rawValue, member.rawValue)!)
        m.append(arguments)
        return m
    }

    /// A signal (dbus_message_new_signal).
    public static func signal(path: ObjectPath, interface: InterfaceName, member: MemberName, arguments: [DBusValue] = []) -> Message {
        let m = Message(adopting: dbus_message_new_signal(path.rawValue, interface.rawValue, member.rawValue)!)
        m.append(arguments)
        return m
    }

    /// The reply to this call (dbus_message_new_method_return).
    public func methodReturn(_ arguments: [DBusValue] = []) -> Message {
        let m = Message(adopting: dbus_message_new_method_return(raw)!)
        m.append(arguments)
        return m
    }

    /// The error reply to this call (dbus_message_new_error).
    public func errorReply(_ error: DBusError) -> Message {
        let name = dbus_validate_error_name(error.name, nil) != 0 ? error.name : "org.freedesktop.DBus.Error.Failed"
        return Message(adopting: dbus_message_new_error(raw, name, error.message)!)
    }

    /// A bare method return carrying `arguments`, addressed to nobody yet: a
    /// template for `copy(replyingTo:)` (dbus_message_new).
    public static func replyTemplate(_ arguments: [DBusValue]) -> Message {
        let m = Message(adopting: dbus_message_new(Int32(Kind.methodReturn.rawValue))!)
        dbus_message_set_no_reply(m.raw, 1)
        m.append(arguments)
        return m
    }

    /// A copy of this reply addressed as the reply to `call` (dbus_message_copy,
    /// then the reply serial and destination): the body is not marshalled again.
    public func copy(replyingTo call: Message) -> Message {
        let m = Message(adopting: dbus_message_copy(raw)!)
        dbus_message_set_reply_serial(m.raw, call.serial)
        dbus_message_set_destination(m.raw, call.sender)
        return m
    }

    /// For an error reply: the error it carries.
    public var error: DBusError? {
        guard kind == .error else { return nil }
        let text = (try? arguments().first?.string) ?? nil
        return DBusError(name: errorName ?? "org.freedesktop.DBus.Error.Failed", message: text ?? "")
    }

    // MARK: body

    /// Appends values to the body (dbus_message_iter_append_basic / open_container).
    public func append(_ values: [DBusValue]) {
        guard !values.isEmpty else { return }
        let iter = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { iter.deallocate() }
        dbus_message_iter_init_append(raw, iter)
        for v in values { MessageWriter.write(v, into: iter) }
    }

    /// How much a message may hold before reading it is refused, in the
    /// reader's cost units (see `MessageReader.Budget`): 8 MiB by default,
    /// far beyond any reply iCare expects (a year of history is ~1 MiB).
    public static let defaultReadLimit = 8 << 20
    /// The limit for the arguments of a method call an object serves: every
    /// member of iCare's interfaces takes a few numbers or short strings.
    public static let methodCallReadLimit = 64 << 10

    /// Whether file descriptors travel with the message.
    public var carriesFileDescriptors: Bool { dbus_message_contains_unix_fds(raw) != 0 }

    /// Reads the whole body, refusing (`LimitsExceeded`) once more than
    /// `limit` is spent and (`InvalidArgs`) a body that carries file
    /// descriptors; their duplicates are never taken out of the message.
    public func arguments(limit: Int = Message.defaultReadLimit) throws(DBusError) -> [DBusValue] {
        if carriesFileDescriptors { throw DBusError.invalidArgs("This service takes no file descriptors.") }
        let iter = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { iter.deallocate() }
        guard dbus_message_iter_init(raw, iter) != 0 else { return [] }
        var budget = MessageReader.Budget(remaining: limit)
        return try MessageReader.readAll(iter, &budget)
    }
}
