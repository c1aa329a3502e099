import CDBus

/// A validated D-Bus object path, e.g. `/org/icare/Reminder` (dbus_validate_path).
public struct ObjectPath: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init?(rawValue: String) {
        guard dbus_validate_path(rawValue, nil) != 0 else { return nil }
        self.rawValue = rawValue
    }
    /// For literals known to be valid; traps otherwise (a programmer error).
    public init(_ literal: String) {
        guard let p = ObjectPath(rawValue: literal) else { preconditionFailure("invalid object path \(literal)") }
        self = p
    }
    public var description: String { rawValue }
}

/// A validated bus name, unique (`:1.42`) or well-known (`org.icare.Reminder`) (dbus_validate_bus_name).
public struct BusName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init?(rawValue: String) {
        guard dbus_validate_bus_name(rawValue, nil) != 0 else { return nil }
        self.rawValue = rawValue
    }
    public init(_ literal: String) {
        guard let n = BusName(rawValue: literal) else { preconditionFailure("invalid bus name \(literal)") }
        self = n
    }
    public var description: String { rawValue }
}

/// A validated interface name (dbus_validate_interface).
public struct InterfaceName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init?(rawValue: String) {
        guard dbus_validate_interface(rawValue, nil) != 0 else { return nil }
        self.rawValue = rawValue
    }
    public init(_ literal: String) {
        guard let n = InterfaceName(rawValue: literal) else { preconditionFailure("invalid interface name \(literal)") }
        self = n
    }
    public var description: String { rawValue }

    public static let properties = InterfaceName("org.freedesktop.DBus.Properties")
    public static let introspectable = InterfaceName("org.freedesktop.DBus.Introspectable")
    public static let peer = InterfaceName("org.freedesktop.DBus.Peer")
}

/// A validated member (method or signal) name (dbus_validate_member).
public struct MemberName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init?(rawValue: String) {
        guard dbus_validate_member(rawValue, nil) != 0 else { return nil }
        self.rawValue = rawValue
    }
    public init(_ literal: String) {
        guard let n = MemberName(rawValue: literal) else { preconditionFailure("invalid member name \(literal)") }
        self = n
    }
    public var description: String { rawValue }
}

/// A validated type signature, e.g. `a{sv}` (dbus_signature_validate).
public struct Signature: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init?(rawValue: String) {
        guard dbus_signature_validate(rawValue, nil) != 0 else { return nil }
        self.rawValue = rawValue
    }
    public init(stringLiteral literal: String) {
        guard let s = Signature(rawValue: literal) else { preconditionFailure("invalid signature \(literal)") }
        self = s
    }
    /// Whether this is exactly one complete type (dbus_signature_validate_single).
    public var isSingleType: Bool { dbus_signature_validate_single(rawValue, nil) != 0 }
    public var description: String { rawValue }
}
