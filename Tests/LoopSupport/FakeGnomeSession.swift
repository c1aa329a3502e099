import DBusKit

/// GNOME's session manager as gnome-session serves it (shapes read in
/// gnome-session's org.gnome.SessionManager.xml, org.gnome.SessionManager.Inhibitor.xml,
/// gsm-manager.c and gsm-inhibitor.c; see docs/desktop-facts.md):
/// `Inhibit(s app_id, u toplevel_xid, s reason, u flags) → u cookie`,
/// `Uninhibit(u)`, `GetInhibitors() → ao`, the `InhibitedActions` (u)
/// property announced with its value, `InhibitorAdded(o)` / `InhibitorRemoved(o)`,
/// and one object per inhibitor at `/org/gnome/SessionManager/Inhibitor<N>`
/// with `GetAppId`, `GetClientId`, `GetReason`, `GetFlags`. An inhibitor
/// goes away when its caller leaves the bus, as gnome-session does.
public final class FakeGnomeSession: FakeBusProgram {
    public struct Held { public let cookie: UInt32; let path: String; let app: String; let reason: String; let flags: UInt32; let caller: String }

    public static let managerPath = "/org/gnome/SessionManager"
    static let interface = InterfaceName("org.gnome.SessionManager")
    public private(set) var held: [Held] = []
    private var serial: UInt32 = 0
    private var callerWatches: [String: NameWatch] = [:]

    public init() { super.init(busName: "org.gnome.SessionManager") }

    public var inhibitedActions: UInt32 { held.reduce(0) { $0 | $1.flags } }

    override public func makeObjects() -> [ExportedObject] {
        held = []
        callerWatches = [:]
        return [ExportedObject(path: ObjectPath(Self.managerPath), interfaces: [
            Interface(Self.interface.rawValue, doc: "The session manager.", methods: [
                Method("Inhibit", in: [Argument("app_id", "s"), Argument("toplevel_xid", "u"), Argument("reason", "s"), Argument("flags", "u")],
                       out: [Argument("inhibit_cookie", "u")], doc: "Inhibits.") { [unowned self] call in
                    let a = call.arguments
                    return [.uint32(inhibit(app: a[0].string!, reason: a[2].string!, flags: a[3].uint32!, caller: call.sender))]
                },
                Method("Uninhibit", in: [Argument("inhibit_cookie", "u")], doc: "Uninhibits.") { [unowned self] call in
                    if let h = held.first(where: { $0.cookie == call.arguments[0].uint32! }) { remove(h) }
                    return []
                },
                Method("GetInhibitors", out: [Argument("inhibitors", "ao")], doc: "Lists.") { [unowned self] _ in
                    [.array(element: "o", held.map { .objectPath(ObjectPath($0.path)) })]
                },
            ], properties: [
                Property("InhibitedActions", "u", doc: "Inhibited.", read: { [unowned self] in .uint32(inhibitedActions) }),
            ], signals: [
                SignalDescription("InhibitorAdded", [Argument("id", "o")], doc: "Added."),
                SignalDescription("InhibitorRemoved", [Argument("id", "o")], doc: "Removed."),
            ]),
        ])]
    }

    private func inhibit(app: String, reason: String, flags: UInt32, caller: String) -> UInt32 {
        serial += 1
        let h = Held(cookie: serial, path: "\(Self.managerPath)/Inhibitor\(serial)", app: app, reason: reason, flags: flags, caller: caller)
        connection?.export(ExportedObject(path: ObjectPath(h.path), interfaces: [
            Interface("org.gnome.SessionManager.Inhibitor", doc: "An inhibitor.", methods: [
                Method("GetAppId", out: [Argument("app_id", "s")], doc: "App.") { _ in [.string(h.app)] },
                Method("GetClientId", out: [Argument("client_id", "o")], doc: "Client.") { _ in [.objectPath(ObjectPath("/"))] },
                Method("GetReason", out: [Argument("reason", "s")], doc: "Reason.") { _ in [.string(h.reason)] },
                Method("GetFlags", out: [Argument("flags", "u")], doc: "Flags.") { _ in [.uint32(h.flags)] },
            ]),
        ]))
        held.append(h)
        if callerWatches[caller] == nil, let name = BusName(rawValue: caller) {
            callerWatches[caller] = connection?.watchName(name) { [unowned self] owner in
                guard owner == nil else { return }
                for each in held where each.caller == caller { remove(each) }
            }
        }
        // gsm-manager.c: the property is updated, then InhibitorAdded is emitted.
        object(Self.managerPath)?.emitPropertiesChanged(Self.interface, ["InhibitedActions"])
        object(Self.managerPath)?.emit(Self.interface, "InhibitorAdded", [.objectPath(ObjectPath(h.path))])
        return h.cookie
    }

    private func remove(_ h: Held) {
        held.removeAll { $0.cookie == h.cookie }
        connection?.unexport(ObjectPath(h.path))
        object(Self.managerPath)?.emitPropertiesChanged(Self.interface, ["InhibitedActions"])
        object(Self.managerPath)?.emit(Self.interface, "InhibitorRemoved", [.objectPath(ObjectPath(h.path))])
    }
}
