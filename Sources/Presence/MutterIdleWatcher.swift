import DBusKit

/// Learns from GNOME's `org.gnome.Mutter.IdleMonitor` when the person has
/// been away from keyboard and pointer for the threshold, and when they are
/// back, by watches rather than by asking `GetIdletime` again and again.
///
/// How Mutter's watches behave (mutter `meta-idle-monitor.c`):
/// - an idle watch (`AddIdleWatch`) is *persistent*: it fires once each time
///   the idle time crosses its interval, and input re-arms it. So it is added
///   once per threshold, never again after each return (that would pile up
///   watches and duplicate `WatchFired`);
/// - a user-active watch (`AddUserActiveWatch`) fires on the next input and
///   is then removed by Mutter: one is added after each idle watch firing;
/// - `WatchFired(u)` is emitted with the adding connection as destination.
///   The bus delivers such a unicast signal to its destination without any
///   match rule, but libdbus hands every message to the connection's filter
///   and DBusKit delivers signals only to matching subscriptions, so the
///   subscription is still needed (its AddMatch is harmless);
/// - while an idle inhibitor is held (gnome-session `InhibitedActions` has
///   the idle flag, e.g. a video playing), idle watches do not fire, and the
///   idle time starts over when the inhibitor goes. `GetIdletime` still
///   counts the real time since the last input. See `PresenceMonitor` for
///   what iCare makes of that.
final class MutterIdleWatcher {
    static let busName = "org.gnome.Mutter.IdleMonitor"
    static let path = "/org/gnome/Mutter/IdleMonitor/Core"
    static let interface = "org.gnome.Mutter.IdleMonitor"

    private let bus: Connection
    /// Whether the name has an owner.
    private(set) var present = false
    /// Whether the person is away (an idle watch fired and no input since).
    private(set) var idle = false
    private(set) var thresholdMs: UInt64
    private var idleWatch: UInt32?
    private var activeWatch: UInt32?
    /// Set while an AddUserActiveWatch call is on its way.
    private var addingActiveWatch = false
    /// WatchFired ids that arrived before the reply that names them.
    private var earlyFired: Set<UInt32> = []

    /// The name appeared (true) or vanished (false).
    var onPresence: ((Bool) -> Void)?
    /// `idle` changed.
    var onIdle: (() -> Void)?

    private var generation = 0
    private var nameWatch: NameWatch?
    private var subscription: SignalSubscription?

    init(bus: Connection, thresholdMs: UInt64) {
        self.bus = bus
        self.thresholdMs = thresholdMs
    }

    func start() {
        guard nameWatch == nil else { return }
        subscription = bus.subscribe(MatchRule(sender: Self.busName, path: Self.path, interface: Self.interface,
                                               member: "WatchFired")) { [weak self] m in
            guard let id = (try? m.arguments())?.first?.uint32 else { return }
            self?.fired(id)
        }
        nameWatch = bus.watchName(BusName(Self.busName)) { [weak self] owner in self?.ownerChanged(owner) }
    }

    /// Replaces the idle watch with one for `ms` (RemoveWatch, AddIdleWatch).
    func setThreshold(ms: UInt64) {
        guard ms != thresholdMs else { return }
        thresholdMs = ms
        guard present else { return }
        if let old = idleWatch {
            idleWatch = nil
            call("RemoveWatch", [.uint32(old)]) { _ in }
        }
        addIdleWatch()
    }

    /// Asks once for the time since the last input, in ms (`GetIdletime`); nil without Mutter.
    func readIdleTime(_ reply: @escaping (UInt64?) -> Void) {
        guard present else { reply(nil); return }
        call("GetIdletime") { result in
            if case .success(let args) = result { reply(args.first?.uint64) } else { reply(nil) }
        }
    }

    /// Reports the person away although no idle watch fired (an inhibitor
    /// holds them back), and arms a user-active watch to learn the return.
    func markAway() {
        guard present, !idle else { return }
        setIdle(true)
        addUserActiveWatch()
    }

    private func ownerChanged(_ owner: String?) {
        generation += 1
        idleWatch = nil
        activeWatch = nil
        addingActiveWatch = false
        earlyFired = []
        present = owner != nil
        onPresence?(present)
        setIdle(false)
        if present { addIdleWatch() }
    }

    private func addIdleWatch() {
        let ms = thresholdMs
        call("AddIdleWatch", [.uint64(ms)]) { [weak self] result in
            guard let self, case .success(let args) = result, let id = args.first?.uint32 else { return }
            guard ms == self.thresholdMs else {
                // The threshold changed meanwhile and a newer watch is on its way.
                self.call("RemoveWatch", [.uint32(id)]) { _ in }
                return
            }
            self.idleWatch = id
            if self.earlyFired.remove(id) != nil { self.fired(id) }
        }
    }

    private func addUserActiveWatch() {
        guard activeWatch == nil, !addingActiveWatch else { return }
        addingActiveWatch = true
        call("AddUserActiveWatch") { [weak self] result in
            guard let self else { return }
            self.addingActiveWatch = false
            guard case .success(let args) = result, let id = args.first?.uint32 else { return }
            self.activeWatch = id
            if self.earlyFired.remove(id) != nil { self.fired(id) }
        }
    }

    private func fired(_ id: UInt32) {
        if id == idleWatch {
            guard !idle else { return }
            setIdle(true)
            addUserActiveWatch()
        } else if id == activeWatch {
            activeWatch = nil
            setIdle(false)
        } else if earlyFired.count < 8 {
            earlyFired.insert(id)
        }
    }

    private func setIdle(_ value: Bool) {
        guard value != idle else { return }
        idle = value
        onIdle?()
    }

    /// A call to Mutter whose reply is dropped if Mutter has changed hands since.
    private func call(_ member: String, _ args: [DBusValue] = [], reply: @escaping (Result<[DBusValue], DBusError>) -> Void) {
        let gen = generation
        bus.callMethod(Self.busName, Self.path, Self.interface, member, args) { [weak self] result in
            guard let self, gen == self.generation else { return }
            reply(result)
        }
    }
}
