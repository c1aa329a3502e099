import CDBus

/// A named D-Bus error with a sentence a person can act on. Thrown by
/// handlers (becomes the error reply) and by calls (from the error reply).
public struct DBusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The error name, e.g. `org.freedesktop.DBus.Error.InvalidArgs`.
    public let name: String
    /// One plain sentence.
    public let message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name : message }

    public static func invalidArgs(_ m: String) -> DBusError { DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: m) }
    public static func unknownMethod(_ m: String) -> DBusError { DBusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: m) }
    public static func unknownInterface(_ m: String) -> DBusError { DBusError(name: "org.freedesktop.DBus.Error.UnknownInterface", message: m) }
    public static func unknownObject(_ m: String) -> DBusError { DBusError(name: "org.freedesktop.DBus.Error.UnknownObject", message: m) }
    public static func unknownProperty(_ m: String) -> DBusError { DBusError(name: "org.freedesktop.DBus.Error.UnknownProperty", message: m) }
    public static func propertyReadOnly(_ m: String) -> DBusError { DBusError(name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: m) }
    public static func failed(_ m: String) -> DBusError { DBusError(name: "org.freedesktop.DBus.Error.Failed", message: m) }
    public static func noMemory() -> DBusError { DBusError(name: "org.freedesktop.DBus.Error.NoMemory", message: "Out of memory.") }
    public static func limitsExceeded(_ m: String) -> DBusError { DBusError(name: "org.freedesktop.DBus.Error.LimitsExceeded", message: m) }
    public static func disconnected(_ m: String) -> DBusError { DBusError(name: "org.freedesktop.DBus.Error.Disconnected", message: m) }

    /// Takes the contents of a C `DBusError` that is set, and frees it.
    static func take(_ e: inout CDBus.DBusError) -> DBusError {
        let err = DBusError(name: e.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
                            message: e.message.map { String(cString: $0) } ?? "")
        dbus_error_free(&e)
        return err
    }
}

/// Runs `body` with an initialised C error and throws it if it was set.
func withCError<R>(_ body: (inout CDBus.DBusError) -> R) throws(DBusError) -> R {
    var e = CDBus.DBusError()
    dbus_error_init(&e)
    let r = body(&e)
    if dbus_error_is_set(&e) != 0 { throw DBusError.take(&e) }
    return r
}
