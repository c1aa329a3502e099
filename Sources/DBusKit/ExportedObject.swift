import CDBus

/// An object served at a path: its interfaces plus the standard
/// `Introspectable`, `Properties` and (answered by libdbus itself) `Peer`.
public final class ExportedObject {
    public let path: ObjectPath
    public let interfaces: [Interface]
    weak var connection: Connection?
    /// The last GetAll reply per interface name with the values it carried:
    /// when the values are unchanged the reply is copied instead of
    /// marshalled again (libdbus's marshalling is most of a GetAll's cost).
    private var getAllCache: [String: (properties: [Property], values: [DBusValue], reply: Message)] = [:]

    public init(path: ObjectPath, interfaces: [Interface]) {
        self.path = path
        self.interfaces = interfaces
    }

    func interface(_ name: String) -> Interface? { interfaces.first { $0.name.rawValue == name } }

    // MARK: signals

    /// Emits a described signal; the arguments must match its description.
    public func emit(_ interface: InterfaceName, _ member: String, _ arguments: [DBusValue] = []) {
        guard let iface = self.interface(interface.rawValue), let signal = iface.signal(member) else {
            preconditionFailure("signal \(interface).\(member) is not in the description")
        }
        let sig = arguments.map(\.signatureText).joined()
        precondition(sig == signal.signature, "signal \(member) takes '\(signal.signature)', given '\(sig)'")
        connection?.send(.signal(path: path, interface: interface, member: signal.name, arguments: arguments))
    }

    /// Emits `PropertiesChanged` for the named properties with their current values.
    public func emitPropertiesChanged(_ interface: InterfaceName, _ names: [String]) {
        guard let iface = self.interface(interface.rawValue), !names.isEmpty else { return }
        var changed: [(String, DBusValue)] = []
        var invalidated: [String] = []
        for name in names {
            guard let p = iface.property(name) else { preconditionFailure("property \(name) is not in the description") }
            switch p.emitsChange {
            case .true: changed.append((name, p.read()))
            case .invalidates: invalidated.append(name)
            case .const, .false: continue
            }
        }
        guard !changed.isEmpty || !invalidated.isEmpty else { return }
        connection?.send(.signal(path: path, interface: .properties, member: MemberName("PropertiesChanged"),
                                 arguments: [.string(interface.rawValue), .vardict(changed), .strings(invalidated)]))
    }

    // MARK: dispatch

    /// Serves one method call; always returns a reply (result or error).
    /// The signature is checked before anything is read, and the arguments
    /// are read within `Message.methodCallReadLimit`, so a wrong or oversized
    /// call costs next to nothing to refuse.
    func handle(_ message: Message) -> Message {
        do throws(DBusError) {
            if message.carriesFileDescriptors { throw DBusError.invalidArgs("This service takes no file descriptors.") }
            let member = message.member ?? ""
            let ifaceName = message.interface
            switch (ifaceName, member) {
            case ("org.freedesktop.DBus.Introspectable", "Introspect"), (nil, "Introspect"):
                _ = try arguments(message, "", "Introspect")
                return message.methodReturn([.string(Introspection.xml(for: self, children: connection?.children(of: path) ?? []))])
            case ("org.freedesktop.DBus.Properties", "GetAll"):
                return try getAll(message)
            case ("org.freedesktop.DBus.Properties", _):
                return message.methodReturn(try handleProperties(member, message))
            default:
                break
            }
            let iface: Interface
            let method: Method
            if let ifaceName {
                guard let i = interface(ifaceName) else {
                    if ifaceName == "org.freedesktop.DBus.Peer" {
                        throw DBusError.unknownMethod("org.freedesktop.DBus.Peer has no method \(member).")
                    }
                    throw DBusError.unknownInterface("Object \(path) has no interface \(ifaceName).")
                }
                guard let m = i.method(member) else {
                    throw DBusError.unknownMethod("Interface \(ifaceName) has no method \(member).")
                }
                iface = i
                method = m
            } else {
                guard let found = interfaces.lazy.compactMap({ i in i.method(member).map { (i, $0) } }).first else {
                    if member == "GetAll" { return try getAll(message) }
                    if member == "Get" || member == "Set" {
                        return message.methodReturn(try handleProperties(member, message))
                    }
                    throw DBusError.unknownMethod("Object \(path) has no method \(member).")
                }
                (iface, method) = found
            }
            let args = try arguments(message, method.inputSignature, "\(iface.name).\(method.name)")
            let out = try method.handler(MethodCall(message: message, arguments: args))
            let outSig = out.map(\.signatureText).joined()
            precondition(outSig == method.outputSignature, "\(method.name) returned '\(outSig)', described '\(method.outputSignature)'")
            return message.methodReturn(out)
        } catch {
            return message.errorReply(error)
        }
    }

    /// The arguments of `message` once its signature is `signature`; read
    /// only then, and within the method-call limit.
    private func arguments(_ message: Message, _ signature: String, _ what: String) throws(DBusError) -> [DBusValue] {
        let given = message.signature
        guard given == signature else {
            let want = signature.isEmpty ? "no arguments" : "arguments of type '\(signature)'"
            let got = given.isEmpty ? "none" : "'\(given)'"
            throw DBusError.invalidArgs("\(what) takes \(want), not \(got).")
        }
        return try message.arguments(limit: Message.methodCallReadLimit)
    }

    private func handleProperties(_ member: String, _ message: Message) throws(DBusError) -> [DBusValue] {
        switch member {
        case "Get":
            let args = try arguments(message, "ss", "org.freedesktop.DBus.Properties.Get")
            let p = try findProperty(args[0].string!, args[1].string!)
            return [.variant(p.read())]
        case "Set":
            let args = try arguments(message, "ssv", "org.freedesktop.DBus.Properties.Set")
            let p = try findProperty(args[0].string!, args[1].string!)
            guard let setter = p.write else {
                throw DBusError.propertyReadOnly("Property \(p.name) is read-only.")
            }
            guard case .variant(let value) = args[2] else { throw DBusError.invalidArgs("Set takes a variant.") }
            guard value.signatureText == p.signature.rawValue else {
                throw DBusError.invalidArgs("Property \(p.name) takes a value of type '\(p.signature)', not '\(value.signatureText)'.")
            }
            try setter(value)
            return []
        default:
            throw DBusError.unknownMethod("Interface org.freedesktop.DBus.Properties has no method \(member).")
        }
    }

    private func getAll(_ message: Message) throws(DBusError) -> Message {
        let name = try arguments(message, "s", "org.freedesktop.DBus.Properties.GetAll")[0].string!
        if let cached = getAllCache[name] {
            // The same properties as last time: reply with a copy while every value is unchanged.
            var same = true
            for (i, p) in cached.properties.enumerated() where p.read() != cached.values[i] {
                same = false
                break
            }
            if same { return cached.reply.copy(replyingTo: message) }
        }
        let chosen: [Interface]
        if name.isEmpty {
            chosen = interfaces
        } else if let i = interface(name) {
            chosen = [i]
        } else if ["org.freedesktop.DBus.Properties", "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer"].contains(name) {
            chosen = []
        } else {
            throw DBusError.unknownInterface("Object \(path) has no interface \(name).")
        }
        let properties = chosen.flatMap(\.properties)
        let values = properties.map { $0.read() }
        let template = Message.replyTemplate([.vardict(zip(properties, values).map { ($0.name, $1) })])
        getAllCache[name] = (properties, values, template)
        return template.copy(replyingTo: message)
    }

    private func findProperty(_ interfaceName: String, _ name: String) throws(DBusError) -> Property {
        if interfaceName.isEmpty {
            for i in interfaces { if let p = i.property(name) { return p } }
            throw DBusError.unknownProperty("Object \(path) has no property \(name).")
        }
        guard let i = interface(interfaceName) else {
            throw DBusError.unknownInterface("Object \(path) has no interface \(interfaceName).")
        }
        guard let p = i.property(name) else {
            throw DBusError.unknownProperty("Interface \(interfaceName) has no property \(name).")
        }
        return p
    }
}

extension Connection {
    /// Serves `object` at its path (replacing any object there).
    public func export(_ object: ExportedObject) {
        object.connection = self
        objects[object.path.rawValue] = object
    }

    /// Stops serving the object at `path`.
    public func unexport(_ path: ObjectPath) {
        objects.removeValue(forKey: path.rawValue)?.connection = nil
    }

    /// The next path elements below `path` that lead to exported objects.
    func children(of path: ObjectPath) -> [String] {
        let prefix = path.rawValue == "/" ? "/" : path.rawValue + "/"
        var names = Set<String>()
        for key in objects.keys where key.hasPrefix(prefix) && key != path.rawValue {
            if let first = key.dropFirst(prefix.count).split(separator: "/").first { names.insert(String(first)) }
        }
        return names.sorted()
    }

    func dispatchMethodCall(_ message: Message) {
        let path = message.path ?? "/"
        let reply: Message
        if let object = objects[path] {
            reply = object.handle(message)
        } else if let p = ObjectPath(rawValue: path), !children(of: p).isEmpty,
                  message.member == "Introspect", message.interface == nil || message.interface == "org.freedesktop.DBus.Introspectable" {
            reply = message.methodReturn([.string(Introspection.xml(for: nil, children: children(of: p)))])
        } else {
            reply = message.errorReply(.unknownObject("There is no object at \(path)."))
        }
        if !message.noReply { send(reply) }
    }
}
