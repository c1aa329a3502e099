import DBusKit

/// A decoded `org.freedesktop.DBus.Properties.PropertiesChanged(s, a{sv}, as)`.
public struct PropertiesChange {
    public let interface: String
    public let changed: [String: DBusValue]
    public let invalidated: [String]

    /// The expected body signature.
    public static let signature = "sa{sv}as"

    /// Decodes `message`; nil when its body is not `sa{sv}as`.
    public init?(_ message: Message) {
        guard message.signature == Self.signature, let args = try? message.arguments(), args.count == 3,
              let interface = args[0].string, let changed = args[1].stringDictionary, let invalidated = args[2].strings
        else { return nil }
        self.interface = interface
        self.changed = changed
        self.invalidated = invalidated
    }

    /// What the signal says about `property`.
    public func news(about property: String) -> News {
        if let value = changed[property] { return .value(value.unwrapped) }
        if invalidated.contains(property) { return .invalidated }
        return .none
    }

    public enum News {
        /// Not mentioned.
        case none
        /// The new value, out of its variant.
        case value(DBusValue)
        /// Changed, without the value: read it again.
        case invalidated
    }
}

extension Message {
    /// The single value of a reply whose body must be exactly `signature`;
    /// variants are unwrapped. Nil for any other shape.
    public func single(_ signature: String) -> DBusValue? {
        guard self.signature == signature, let args = try? arguments(), args.count == 1 else { return nil }
        return args[0].unwrapped
    }

    /// The body signature in quotes, or "no arguments", for log lines.
    public var signatureForLog: String { signature.isEmpty ? "no arguments" : "'\(signature)'" }
}
