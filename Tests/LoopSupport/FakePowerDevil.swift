import DBusKit

/// PowerDevil's policy agent as Plasma 6.5+ serves it (shapes read in
/// powerdevil's daemon/dbus/org.kde.Solid.PowerManagement.PolicyAgent.xml and
/// powerdevilpolicyagent.cpp; see docs/desktop-facts.md): `AddInhibition(u
/// types, s app_name, s reason) → u cookie`, `ReleaseInhibition(u)`, and
/// `ActiveInhibitions` (`a(ssssu)`: what, who, why, mode, flags), announced by
/// a `PropertiesChanged` with an empty changed map and the names invalidated.
/// Types: 1 = InterruptSession (what "sleep"), 4 = ChangeScreenSettings ("idle").
/// `listsInhibitions: false` is PowerDevil before 6.5: no such property.
public final class FakePolicyAgent: FakeBusProgram {
    public static let path = "/org/kde/Solid/PowerManagement/PolicyAgent"
    public static let interface = "org.kde.Solid.PowerManagement.PolicyAgent"
    public let listsInhibitions: Bool
    public private(set) var held: [(cookie: UInt32, what: String, who: String, why: String)] = []
    private var serial: UInt32 = 0

    public init(listsInhibitions: Bool = true) {
        self.listsInhibitions = listsInhibitions
        super.init(busName: "org.kde.Solid.PowerManagement.PolicyAgent")
    }

    override public func makeObjects() -> [ExportedObject] {
        held = []
        let list = { [unowned self] () -> DBusValue in
            .array(element: "(ssssu)", held.map { .structure([.string($0.what), .string($0.who), .string($0.why), .string("block"), .uint32(3)]) })
        }
        return [ExportedObject(path: ObjectPath(Self.path), interfaces: [
            Interface(Self.interface, doc: "The policy agent.", methods: [
                Method("AddInhibition", in: [Argument("types", "u"), Argument("app_name", "s"), Argument("reason", "s")],
                       out: [Argument("cookie", "u")], doc: "Adds.") { [unowned self] call in
                    let a = call.arguments
                    serial += 1
                    let types = a[0].uint32!
                    let what = [types & 1 != 0 ? "sleep" : nil, types & 4 != 0 ? "idle" : nil].compactMap { $0 }.joined(separator: ":")
                    held.append((serial, what, a[1].string!, a[2].string!))
                    invalidate()
                    return [.uint32(serial)]
                },
                Method("ReleaseInhibition", in: [Argument("cookie", "u")], doc: "Releases.") { [unowned self] call in
                    held.removeAll { $0.cookie == call.arguments[0].uint32! }
                    invalidate()
                    return []
                },
            ], properties: listsInhibitions ? [
                Property("RequestedInhibitions", "a(ssssu)", doc: "Requested.", emitsChange: .invalidates, read: list),
                Property("ActiveInhibitions", "a(ssssu)", doc: "Active.", emitsChange: .invalidates, read: list),
            ] : []),
        ])]
    }

    /// powerdevilpolicyagent.cpp: `PropertiesChanged(iface, {}, [names])`, sent by hand.
    private func invalidate() {
        guard listsInhibitions else { return }
        sendSignal(Self.path, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                   [.string(Self.interface), .vardict([]), .array(element: "s", [.string("RequestedInhibitions"), .string("ActiveInhibitions")])])
    }
}

/// PowerDevil's freedesktop connector before Plasma 6.5 (daemon/dbus/
/// org.freedesktop.PowerManagement.Inhibit.xml, powerdevilfdoconnector.cpp):
/// `org.freedesktop.PowerManagement.Inhibit` at `/org/freedesktop/PowerManagement/Inhibit`,
/// `HasInhibit() → b` and the `HasInhibitChanged(b)` signal.
public final class FakeFdoInhibit: FakeBusProgram {
    public static let path = "/org/freedesktop/PowerManagement/Inhibit"
    public static let interface = "org.freedesktop.PowerManagement.Inhibit"
    public var inhibited = false

    public init() { super.init(busName: "org.freedesktop.PowerManagement.Inhibit") }

    override public func makeObjects() -> [ExportedObject] {
        [ExportedObject(path: ObjectPath(Self.path), interfaces: [
            Interface(Self.interface, doc: "Inhibit.", methods: [
                Method("HasInhibit", out: [Argument("has_inhibit", "b")], doc: "Has.") { [unowned self] _ in [.bool(inhibited)] },
            ], signals: [SignalDescription("HasInhibitChanged", [Argument("has_inhibit", "b")], doc: "Changed.")]),
        ])]
    }

    public func set(_ on: Bool) {
        inhibited = on
        object(Self.path)?.emit(InterfaceName(Self.interface), "HasInhibitChanged", [.bool(on)])
    }
}
