import CDBus
import SystemdKit

/// A match rule for signals (the bus's `AddMatch` syntax), built from parts.
public struct MatchRule: Sendable, CustomStringConvertible {
    /// A bus name; a well-known name matches the messages of its current owner.
    public var sender: String?
    public var path: String?
    public var interface: String?
    public var member: String?
    /// The first argument, when it is a string equal to this.
    public var arg0: String?
    /// The first argument as a path-prefix match (`arg0path`).
    public var arg0path: String?

    public init(sender: String? = nil, path: String? = nil, interface: String? = nil, member: String? = nil,
                arg0: String? = nil, arg0path: String? = nil) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arg0 = arg0
        self.arg0path = arg0path
    }

    /// The rule text for `AddMatch`.
    public var description: String {
        var parts = ["type='signal'"]
        func add(_ key: String, _ value: String?) {
            if let value { parts.append("\(key)='\(value.replacingQuote)'") }
        }
        add("sender", sender)
        add("path", path)
        add("interface", interface)
        add("member", member)
        add("arg0", arg0)
        add("arg0path", arg0path)
        return parts.joined(separator: ",")
    }

    /// Whether `message` (a signal) matches, given who currently owns which well-known names.
    func matches(_ message: Message, owners: [String: String]) -> Bool {
        if let sender {
            let actual = message.sender ?? ""
            if sender.hasPrefix(":") || sender == "org.freedesktop.DBus" {
                if actual != sender { return false }
            } else if owners[sender] != actual {
                return false
            }
        }
        if let path, message.path != path { return false }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if arg0 != nil || arg0path != nil {
            guard let first = (try? message.arguments())?.first,
                  case .string(let s) = first else {
                if arg0path != nil, let first = (try? message.arguments())?.first, case .objectPath(let p) = first {
                    return MatchRule.pathMatches(p.rawValue, arg0path!)
                }
                return false
            }
            if let arg0, s != arg0 { return false }
            if let arg0path, !MatchRule.pathMatches(s, arg0path) { return false }
        }
        return true
    }

    /// The specification's arg0path rule: equal, or one is a prefix of the other ending in `/`.
    static func pathMatches(_ value: String, _ rule: String) -> Bool {
        if value == rule { return true }
        if rule.hasSuffix("/") && value.hasPrefix(rule) { return true }
        if value.hasSuffix("/") && rule.hasPrefix(value) { return true }
        return false
    }
}

extension String {
    fileprivate var replacingQuote: String {
        // Match rules have no escape inside quotes: close, escaped quote, reopen.
        split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
    }
}

final class Subscription {
    let rule: MatchRule
    let handler: (Message) -> Void
    init(rule: MatchRule, handler: @escaping (Message) -> Void) {
        self.rule = rule
        self.handler = handler
    }
}

/// A live signal subscription; `cancel()` (or dropping it) removes the match.
public final class SignalSubscription {
    private weak var connection: Connection?
    private let id: Int
    init(connection: Connection, id: Int) {
        self.connection = connection
        self.id = id
    }
    deinit { cancel() }
    /// Removes the match rule and the handler.
    public func cancel() { connection?.unsubscribe(id) }
}

final class NameTracking {
    var handlers: [Int: (String?) -> Void] = [:]
    var signal: SignalSubscription?
    var generation = 0
}

/// A live watch of a bus name's owner; `cancel()` or dropping it stops it.
public final class NameWatch {
    private weak var connection: Connection?
    private let name: String
    private let id: Int
    init(connection: Connection, name: String, id: Int) {
        self.connection = connection
        self.name = name
        self.id = id
    }
    deinit { cancel() }
    public func cancel() { connection?.unwatchName(name, id) }
}

extension Connection {
    /// Calls `handler` for every signal matching `rule` (adds the match on
    /// the bus without waiting for its reply). A well-known `sender` is
    /// matched against its current owner, which the connection tracks.
    public func subscribe(_ rule: MatchRule, _ handler: @escaping (Message) -> Void) -> SignalSubscription {
        let id = nextSubscriptionID
        nextSubscriptionID += 1
        subscriptions[id] = Subscription(rule: rule, handler: handler)
        dbus_bus_add_match(raw, rule.description, nil)
        if let sender = rule.sender, !sender.hasPrefix(":"), sender != "org.freedesktop.DBus", nameWatchers[sender] == nil {
            trackOwner(sender)
        }
        return SignalSubscription(connection: self, id: id)
    }

    func unsubscribe(_ id: Int) {
        guard let sub = subscriptions.removeValue(forKey: id) else { return }
        if isConnected { dbus_bus_remove_match(raw, sub.rule.description, nil) }
    }

    func deliverSignal(_ message: Message) {
        if message.isSignal("org.freedesktop.DBus", "NameOwnerChanged"), message.sender == "org.freedesktop.DBus",
           let args = try? message.arguments(), args.count == 3,
           let name = args[0].string, let newOwner = args[2].string {
            noteOwner(name, newOwner.isEmpty ? nil : newOwner)
        }
        for id in subscriptions.keys.sorted() {
            guard let sub = subscriptions[id], sub.rule.matches(message, owners: owners) else { continue }
            sub.handler(message)
        }
    }

    /// Calls `handler` with the owner of `name` (a unique name, or nil when
    /// none) once it is known, and again every time it changes
    /// (`NameOwnerChanged`, plus an initial `GetNameOwner`).
    public func watchName(_ name: BusName, _ handler: @escaping (String?) -> Void) -> NameWatch {
        let tracking = trackOwner(name.rawValue)
        let id = nextSubscriptionID
        nextSubscriptionID += 1
        tracking.handlers[id] = handler
        if tracking.generation > 0 {
            // Already known: tell the new watcher on the next iteration.
            let owner = owners[name.rawValue]
            var holder: EventSource?
            holder = try? loop.addDefer {
                handler(owner)
                holder?.cancel()
                holder = nil
            }
        }
        return NameWatch(connection: self, name: name.rawValue, id: id)
    }

    /// The current owner of a tracked name, if known.
    public func owner(of name: String) -> String? { owners[name] }

    @discardableResult
    private func trackOwner(_ name: String) -> NameTracking {
        if let t = nameWatchers[name] { return t }
        let tracking = NameTracking()
        nameWatchers[name] = tracking
        tracking.signal = subscribe(MatchRule(sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                              interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arg0: name)) { _ in }
        let ask = Message.methodCall(destination: BusName("org.freedesktop.DBus"), path: ObjectPath("/org/freedesktop/DBus"),
                                     interface: InterfaceName("org.freedesktop.DBus"), member: MemberName("GetNameOwner"),
                                     arguments: [.string(name)])
        call(ask) { [weak self, weak tracking] result in
            guard let self, let tracking, tracking.generation == 0 else { return }
            var owner: String? = nil
            if case .success(let reply) = result { owner = (try? reply.arguments())?.first?.string }
            self.noteOwner(name, owner, initial: true)
        }
        return tracking
    }

    private func noteOwner(_ name: String, _ owner: String?, initial: Bool = false) {
        guard let tracking = nameWatchers[name] else { return }
        let old = owners[name]
        let wasKnown = tracking.generation > 0
        tracking.generation += 1
        owners[name] = owner
        if wasKnown && old == owner { return }
        for id in tracking.handlers.keys.sorted() { tracking.handlers[id]?(owner) }
    }

    func unwatchName(_ name: String, _ id: Int) {
        nameWatchers[name]?.handlers[id] = nil
    }
}
