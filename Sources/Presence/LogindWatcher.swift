import Glibc
import DBusKit
import SystemdKit

/// Follows logind on the system bus: the hints of this process's own session
/// (`LockedHint`, `IdleHint`, `IdleSinceHint`, `Active`) and the manager's
/// `PrepareForSleep`. Tracks `org.freedesktop.login1` coming and going and
/// resolves the session again each time it appears.
final class LogindWatcher {
    static let busName = "org.freedesktop.login1"
    static let managerPath = "/org/freedesktop/login1"
    static let managerInterface = "org.freedesktop.login1.Manager"
    static let sessionInterface = "org.freedesktop.login1.Session"

    /// The session hints iCare cares about; the defaults mean "present".
    struct Hints: Equatable {
        var locked = false
        var idle = false
        /// µs of CLOCK_REALTIME; 0 when logind does not know.
        var idleSince: UInt64 = 0
        var active = true
    }

    /// How the session was found, for the log.
    enum Resolution: Equatable {
        case found(path: String, via: String)
        case none(reason: String)
    }

    private let bus: Connection
    /// Whether `org.freedesktop.login1` has an owner.
    private(set) var present = false
    /// The real object path of our session, once resolved.
    private(set) var sessionPath: String?
    private(set) var hints = Hints()

    /// The name appeared (true) or vanished (false).
    var onPresence: ((Bool) -> Void)?
    /// The session was resolved, or could not be.
    var onResolved: ((Resolution) -> Void)?
    /// `hints` changed (including the reset when logind goes away).
    var onHints: (() -> Void)?
    /// `PrepareForSleep(b)`.
    var onPrepareForSleep: ((Bool) -> Void)?

    private var generation = 0
    private var nameWatch: NameWatch?
    private var sleepSubscription: SignalSubscription?
    private var sessionSubscription: SignalSubscription?

    init(bus: Connection) { self.bus = bus }

    /// Subscribes to the manager's sleep signal and starts tracking the name.
    func start() {
        guard nameWatch == nil else { return }
        sleepSubscription = bus.subscribe(MatchRule(sender: Self.busName, path: Self.managerPath,
                                                    interface: Self.managerInterface, member: "PrepareForSleep")) { [weak self] m in
            guard let value = (try? m.arguments())?.first?.bool else { return }
            self?.onPrepareForSleep?(value)
        }
        nameWatch = bus.watchName(BusName(Self.busName)) { [weak self] owner in self?.ownerChanged(owner) }
    }

    /// The connection to the system bus is gone: as if logind vanished, and
    /// nothing more is expected from it.
    func busLost() {
        sleepSubscription = nil
        nameWatch = nil
        if present || hints != Hints() { ownerChanged(nil) }
    }

    private func ownerChanged(_ owner: String?) {
        generation += 1
        sessionSubscription = nil
        sessionPath = nil
        let hadHints = hints != Hints()
        hints = Hints()
        present = owner != nil
        onPresence?(present)
        if hadHints { onHints?() }
        if present { resolveSession() }
    }

    // MARK: finding the session

    /// `GetSession("auto")` first (the caller's session, or its user's display
    /// session); then `GetSessionByPID(getpid())`; then give up quietly.
    private func resolveSession() {
        let gen = generation
        bus.callMethod(Self.busName, Self.managerPath, Self.managerInterface, "GetSession", [.string("auto")]) { [weak self] result in
            guard let self, gen == self.generation else { return }
            if case .success(let args) = result, let path = args.first?.objectPath?.rawValue {
                self.adopt(path, via: "GetSession(\"auto\")", gen: gen) { self.resolveByPID(gen: gen, after: "GetSession(\"auto\") gave \(path), which does not answer") }
            } else {
                self.resolveByPID(gen: gen, after: "GetSession(\"auto\") failed: \(result.errorText)")
            }
        }
    }

    private func resolveByPID(gen: Int, after reason: String) {
        bus.callMethod(Self.busName, Self.managerPath, Self.managerInterface, "GetSessionByPID", [.uint32(UInt32(getpid()))]) { [weak self] result in
            guard let self, gen == self.generation else { return }
            if case .success(let args) = result, let path = args.first?.objectPath?.rawValue {
                self.adopt(path, via: "GetSessionByPID", gen: gen) {
                    self.onResolved?(.none(reason: "\(reason); GetSessionByPID gave \(path), which does not answer"))
                }
            } else {
                self.onResolved?(.none(reason: "\(reason); GetSessionByPID failed: \(result.errorText)"))
            }
        }
    }

    /// Subscribes to `path`'s PropertiesChanged, then reads its hints. An
    /// alias path is replaced by the real one built from the session's `Id`.
    private func adopt(_ path: String, via: String, gen: Int, otherwise fallback: @escaping () -> Void) {
        subscribeSession(path)
        bus.getAllProperties(Self.busName, path, Self.sessionInterface) { [weak self] result in
            guard let self, gen == self.generation else { return }
            guard case .success(let props) = result else {
                self.sessionSubscription = nil
                fallback()
                return
            }
            if SessionPath.isAlias(path), let id = props["Id"]?.string {
                let real = SessionPath.forID(id)
                if real != path {
                    self.adopt(real, via: "\(via) and Id \(id)", gen: gen, otherwise: fallback)
                    return
                }
            }
            self.sessionPath = path
            self.onResolved?(.found(path: path, via: via))
            self.apply(props)
        }
    }

    private func subscribeSession(_ path: String) {
        sessionSubscription = bus.subscribe(MatchRule(sender: Self.busName, path: path, interface: "org.freedesktop.DBus.Properties",
                                                      member: "PropertiesChanged", arg0: Self.sessionInterface)) { [weak self] m in
            self?.propertiesChanged(m)
        }
    }

    // MARK: hints

    private static let watched: Set<String> = ["LockedHint", "IdleHint", "IdleSinceHint", "Active"]

    /// Applies the values that came with the signal; re-reads those that were only invalidated.
    private func propertiesChanged(_ m: Message) {
        guard let args = try? m.arguments(), args.count == 3, let changed = args[1].stringDictionary else { return }
        apply(changed)
        let invalidated = Set(args[2].strings ?? []).intersection(Self.watched)
        guard !invalidated.isEmpty, let path = sessionPath else { return }
        let gen = generation
        bus.getAllProperties(Self.busName, path, Self.sessionInterface) { [weak self] result in
            guard let self, gen == self.generation, case .success(let props) = result else { return }
            self.apply(props.filter { invalidated.contains($0.key) })
        }
    }

    private func apply(_ props: [String: DBusValue]) {
        var new = hints
        if let v = props["LockedHint"]?.bool { new.locked = v }
        if let v = props["IdleHint"]?.bool { new.idle = v }
        if let v = props["IdleSinceHint"]?.uint64 { new.idleSince = v }
        if let v = props["Active"]?.bool { new.active = v }
        guard new != hints else { return }
        hints = new
        onHints?()
    }
}

extension Result where Failure == DBusError {
    /// The error's text, or "" on success; for log lines.
    var errorText: String {
        // dbus-python puts a whole traceback in the message: keep its last line.
        if case .failure(let e) = self {
            let line = e.message.split(separator: "\n", omittingEmptySubsequences: true).last.map(String.init) ?? ""
            return line.isEmpty ? e.name : "\(e.name): \(line.prefix(160))"
        }
        return ""
    }
}
