import DBusKit
import SystemdKit
import ReminderCore

/// Something that happened on the service, as the live commands see it.
public enum LiveEvent {
    /// A fresh snapshot arrived (`GetAll`).
    case snapshot
    /// Properties changed (the changed values, by name).
    case properties([(String, DBusValue)])
    /// A signal of `org.icare.Reminder` (name, arguments).
    case signal(String, [DBusValue])
    /// The service appeared on the bus or went away.
    case service(running: Bool)
}

/// Follows the service without polling: subscribes to its signals and
/// `PropertiesChanged`, watches its bus name, and keeps `status` current
/// (one `GetAll` at start and whenever the service (re)appears). Runs on the
/// caller's sd-event loop; `onEvent` is called on it.
public final class LiveFeed {
    public let loop: EventLoop
    public let connection: Connection
    /// The latest snapshot; nil while the service is not running (or not yet known).
    public private(set) var status: ServiceStatus?
    /// Whether the service is known to be absent.
    public private(set) var stopped = false
    /// Why the last `GetAll` failed (one sentence), while the service is absent; nil otherwise.
    public private(set) var problem: String?
    public var onEvent: (LiveEvent) -> Void = { _ in }
    /// Called when `problem` changes while the service is known to be absent (a failed activation's
    /// sentence arrives after the name watch has already said "stopped").
    public var onProblem: () -> Void = {}
    /// Called when the bus connection drops.
    public var onDisconnect: () -> Void = {}
    private var subscriptions: [SignalSubscription] = []
    private var nameWatch: NameWatch?
    private var generation = 0

    public init(loop: EventLoop) throws(CLIError) {
        self.loop = loop
        connection = try ReminderProxy.connect(loop: loop)
    }

    /// Subscribes and asks for the first snapshot (which may activate the service).
    public func start() {
        connection.onDisconnect = { [unowned self] in self.onDisconnect() }
        let name = ReminderBus.name.rawValue, path = ReminderBus.path.rawValue
        subscriptions.append(connection.subscribe(MatchRule(sender: name, path: path, interface: "org.freedesktop.DBus.Properties",
                                                            member: "PropertiesChanged")) { [unowned self] m in self.propertiesChanged(m) })
        subscriptions.append(connection.subscribe(MatchRule(sender: name, path: path, interface: ReminderBus.interface.rawValue)) { [unowned self] m in
            guard let member = m.member else { return }
            self.onEvent(.signal(member, (try? m.arguments()) ?? []))
        })
        nameWatch = connection.watchName(ReminderBus.name) { [unowned self] owner in
            if owner != nil {
                if self.stopped { self.stopped = false; self.onEvent(.service(running: true)) }
                self.refresh()
            } else if !self.stopped {
                self.stopped = true
                self.status = nil
                self.generation += 1
                self.onEvent(.service(running: false))
            }
        }
        refresh()
    }

    /// Asks for every property again.
    public func refresh() {
        generation += 1
        let mine = generation
        let ask = ReminderBus.propertiesCall("GetAll", [.string(ReminderBus.interface.rawValue)])
        connection.call(ask) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let reply):
                guard mine == self.generation else { return }
                guard let dict = (try? reply.arguments())?.first?.stringDictionary else { return }
                self.status = ServiceStatus(properties: dict)
                self.stopped = false
                self.problem = nil
                self.onEvent(.snapshot)
            case .failure(let e):
                // A failed activation answers after the name watch has said "absent" (which starts a new
                // generation): its sentence still tells why, unless a newer snapshot has arrived meanwhile.
                guard mine == self.generation || self.status == nil else { return }
                // Not running and not activatable: wait for the name to appear.
                let sentence = ReminderBus.explain(e).message
                let changed = sentence != self.problem
                self.problem = sentence
                if !self.stopped {
                    self.stopped = true
                    self.status = nil
                    self.onEvent(.service(running: false))
                } else if changed {
                    self.onProblem()
                }
            }
        }
    }

    private func propertiesChanged(_ m: Message) {
        guard let args = try? m.arguments(), args.count >= 2, args[0].string == ReminderBus.interface.rawValue,
              case .dictionary(_, _, let entries) = args[1] else { return }
        var changes: [(String, DBusValue)] = []
        var dict: [String: DBusValue] = [:]
        for (k, v) in entries {
            guard let key = k.string else { continue }
            changes.append((key, v.unwrapped))
            dict[key] = v.unwrapped
        }
        status?.apply(dict)
        if let invalidated = args.count > 2 ? args[2].strings : nil, !invalidated.isEmpty { refresh() }
        onEvent(.properties(changes))
    }

    /// Calls a method without waiting; `done` gets nil or the error's sentence.
    public func call(_ member: String, _ args: [DBusValue] = [], done: @escaping (String?) -> Void) {
        connection.call(ReminderBus.methodCall(member, args)) { result in
            switch result {
            case .success: done(nil)
            case .failure(let e): done(ReminderBus.explain(e).message)
            }
        }
    }

    /// Writes a setting (`Properties.Set`) without waiting; `done` gets nil or the error's sentence.
    public func set(_ key: SettingKey, _ value: SettingValue, done: @escaping (String?) -> Void) {
        let message = ReminderBus.propertiesCall("Set", [.string(ReminderBus.interface.rawValue), .string(key.name), .variant(value.dbus)])
        connection.call(message) { result in
            switch result {
            case .success: done(nil)
            case .failure(let e): done(ReminderBus.explain(e).message)
            }
        }
    }

    /// `GetHistory(from, to)` without waiting; `done` gets the records, or nil when the call failed.
    public func history(from: Timestamp, to: Timestamp, done: @escaping ([BreakRecord]?) -> Void) {
        connection.call(ReminderBus.methodCall("GetHistory", ReminderBus.historyArguments(from: from, to: to))) { result in
            switch result {
            case .success(let reply): done(ReminderBus.records((try? reply.arguments()) ?? []))
            case .failure: done(nil)
            }
        }
    }
}
