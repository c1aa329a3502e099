/// A named, typed argument of a method or signal.
public struct Argument: Sendable {
    public let name: String
    public let signature: Signature
    public init(_ name: String, _ signature: Signature) {
        self.name = name
        self.signature = signature
    }
}

/// A method call as a handler sees it: arguments already checked against the description.
public struct MethodCall {
    public let message: Message
    public let arguments: [DBusValue]
    /// The caller's unique name.
    public var sender: String { message.sender ?? "" }
}

/// One method: its arguments, its documentation, and the code that serves it.
public struct Method {
    public let name: MemberName
    public let inputs: [Argument]
    public let outputs: [Argument]
    public let doc: String
    public let handler: (MethodCall) throws(DBusError) -> [DBusValue]

    public init(_ name: String, in inputs: [Argument] = [], out outputs: [Argument] = [], doc: String,
                handler: @escaping (MethodCall) throws(DBusError) -> [DBusValue]) {
        self.name = MemberName(name)
        self.inputs = inputs
        self.outputs = outputs
        self.doc = doc
        self.handler = handler
    }

    var inputSignature: String { inputs.map(\.signature.rawValue).joined() }
    var outputSignature: String { outputs.map(\.signature.rawValue).joined() }
}

/// One signal: its arguments and documentation. Emitting a signal that is not described is a programmer error.
public struct SignalDescription: Sendable {
    public let name: MemberName
    public let arguments: [Argument]
    public let doc: String
    public init(_ name: String, _ arguments: [Argument] = [], doc: String) {
        self.name = MemberName(name)
        self.arguments = arguments
        self.doc = doc
    }
    var signature: String { arguments.map(\.signature.rawValue).joined() }
}

/// One property: type, access, documentation, getter and (for writable ones) a setter.
public struct Property {
    /// How changes are announced (the `EmitsChangedSignal` annotation).
    public enum EmitsChange: String, Sendable {
        case `true`, invalidates, const, `false`
    }

    public let name: String
    public let signature: Signature
    public let doc: String
    public let emitsChange: EmitsChange
    public let read: () -> DBusValue
    /// nil for read-only properties. Receives a value of the right type; throws to refuse it.
    public let write: ((DBusValue) throws(DBusError) -> Void)?

    public init(_ name: String, _ signature: Signature, doc: String, emitsChange: EmitsChange = .true,
                read: @escaping () -> DBusValue, write: ((DBusValue) throws(DBusError) -> Void)? = nil) {
        precondition(MemberName(rawValue: name) != nil, "invalid property name \(name)")
        self.name = name
        self.signature = signature
        self.doc = doc
        self.emitsChange = emitsChange
        self.read = read
        self.write = write
    }

    public var isWritable: Bool { write != nil }
}

/// An interface described once as data: dispatch, argument checking,
/// properties, PropertiesChanged and introspection all come from it.
public struct Interface {
    public let name: InterfaceName
    public let doc: String
    public let methods: [Method]
    public let properties: [Property]
    public let signals: [SignalDescription]
    /// Extra `<annotation>`s on the interface element.
    public let annotations: [(String, String)]

    public init(_ name: String, doc: String, methods: [Method] = [], properties: [Property] = [],
                signals: [SignalDescription] = [], annotations: [(String, String)] = []) {
        self.name = InterfaceName(name)
        self.doc = doc
        self.methods = methods
        self.properties = properties
        self.signals = signals
        self.annotations = annotations
    }

    func method(_ name: String) -> Method? { methods.first { $0.name.rawValue == name } }
    func property(_ name: String) -> Property? { properties.first { $0.name == name } }
    func signal(_ name: String) -> SignalDescription? { signals.first { $0.name.rawValue == name } }
}
