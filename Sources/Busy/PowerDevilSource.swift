import DBusKit
import DesktopWatch

/// Plasma's PowerDevil (shapes in docs/desktop-facts.md). From Plasma 6.5:
/// `ActiveInhibitions` (`a(ssssu)`: what, who, why, mode, flags) on
/// `org.kde.Solid.PowerManagement.PolicyAgent` at
/// `/org/kde/Solid/PowerManagement/PolicyAgent`, announced by a
/// `PropertiesChanged` that only invalidates it; busy while an entry's
/// `what` includes `idle`. Before 6.5, where that property is missing:
/// `org.freedesktop.PowerManagement.Inhibit`'s `HasInhibit() → b` and its
/// `HasInhibitChanged(b)` signal, which say "inhibited" without who or why.
final class PowerDevilSource: InhibitorSource {
    static let agentName = BusName("org.kde.Solid.PowerManagement.PolicyAgent")
    static let agentPath = ObjectPath("/org/kde/Solid/PowerManagement/PolicyAgent")
    static let agentInterface = "org.kde.Solid.PowerManagement.PolicyAgent"
    static let fdoName = BusName("org.freedesktop.PowerManagement.Inhibit")
    static let fdoPath = ObjectPath("/org/freedesktop/PowerManagement/Inhibit")
    static let fdoInterface = "org.freedesktop.PowerManagement.Inhibit"
    /// `PolicyAgentInhibition::Active` (powerdevilpolicyagent.h).
    static let activeFlag: UInt32 = 1

    let name = "Plasma's PowerDevil"
    var onChange: (() -> Void)?
    private let connection: Connection
    private let agent: BusNameFollower
    private let fdo: BusNameFollower
    private let problem: (String) -> Void
    private var subscriptions: [SignalSubscription] = []
    private var agentPresent: Bool?
    private var fdoPresent: Bool?
    /// Whether the agent has `ActiveInhibitions` (Plasma 6.5+); nil until it answered.
    private var agentLists: Bool?
    /// The idle inhibitions as "who: why", oldest first.
    private var idle: [String] = []
    private var hasInhibit = false

    init(connection: Connection, problem: @escaping (String) -> Void) {
        self.connection = connection
        self.problem = problem
        agent = BusNameFollower(connection: connection, name: Self.agentName)
        fdo = BusNameFollower(connection: connection, name: Self.fdoName)
    }

    var present: Bool? {
        guard let agentPresent, let fdoPresent else { return nil }
        return agentPresent || fdoPresent
    }

    var state: BusyState {
        if agentLists == true {
            return idle.isEmpty ? .free : BusyState(active: true, source: "video", reason: idle.last!)
        }
        return hasInhibit ? BusyState(active: true, source: "video", reason: "") : .free
    }

    func start() {
        subscriptions = [
            agent.subscribePropertiesChanged(path: Self.agentPath, interface: Self.agentInterface) { [weak self] message in
                guard let self, let change = PropertiesChange(message) else { return }
                if case .none = change.news(about: "ActiveInhibitions") { return }
                self.readActive()
            },
            // Any path: PowerDevil serves the same object at /org/freedesktop/PowerManagement too.
            connection.subscribe(MatchRule(sender: Self.fdoName.rawValue, interface: Self.fdoInterface,
                                           member: "HasInhibitChanged")) { [weak self] message in
                guard let self else { return }
                guard let on = message.body("b")?.first?.bool else {
                    return self.problem("HasInhibitChanged came with \(message.signatureForLog) instead of 'b'")
                }
                self.setHasInhibit(on)
            },
        ]
        agent.start { [weak self] owner in
            guard let self else { return }
            self.agentPresent = owner != nil
            self.agentLists = nil
            self.idle = []
            self.onChange?()
            if owner != nil { self.readActive() }
        }
        fdo.start { [weak self] owner in
            guard let self else { return }
            self.fdoPresent = owner != nil
            self.hasInhibit = false
            self.onChange?()
            guard owner != nil else { return }
            self.fdo.call(Self.fdoPath, InterfaceName(Self.fdoInterface), "HasInhibit") { [weak self] result in
                guard let self, case .success(let reply) = result else { return }
                guard let on = reply.single("b")?.bool else {
                    return self.problem("HasInhibit answered \(reply.signatureForLog) instead of 'b'")
                }
                self.setHasInhibit(on)
            }
        }
    }

    private func setHasInhibit(_ on: Bool) {
        guard on != hasInhibit else { return }
        hasInhibit = on
        onChange?()
    }

    private func readActive() {
        agent.getProperty(Self.agentPath, Self.agentInterface, "ActiveInhibitions") { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure:
                // Before Plasma 6.5 there is no such property: HasInhibit speaks instead.
                if self.agentLists != false {
                    self.agentLists = false
                    self.onChange?()
                }
            case .success(let reply):
                guard let entries = reply.single("v")?.array, reply.single("v")?.signature == "a(ssssu)" else {
                    return self.problem("ActiveInhibitions is not an 'a(ssssu)'")
                }
                self.agentLists = true
                self.idle = entries.compactMap(Self.idleReason)
                self.onChange?()
            }
        }
    }

    /// "who: why" of an active inhibition whose `what` includes `idle`; nil for any other.
    static func idleReason(_ entry: DBusValue) -> String? {
        guard let m = entry.structure, m.count == 5, let what = m[0].string, let who = m[1].string, let why = m[2].string,
              let flags = m[4].uint32 else { return nil }
        guard flags & activeFlag != 0, what.split(separator: ":").contains("idle") else { return nil }
        return inhibitorReason(app: who, why: why)
    }
}
