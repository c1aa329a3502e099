import DBusKit

/// xdg-desktop-portal's Background portal as its frontend answers a caller (1.16, src/background.c and
/// src/request.c, run for real in FlatpakTests' PortalRig): `RequestBackground(s parent_window, a{sv}
/// options) → o handle`, the handle being `/org/freedesktop/portal/desktop/request/SENDER/TOKEN` (the
/// caller's unique name without its ':' and with '_' for '.', and the `handle_token` option), then the
/// answer as `Response(u response, a{sv} results)` on `org.freedesktop.portal.Request` from that path.
/// Here the answer goes out before the method's reply, the earliest a portal could send it: a caller that
/// subscribes only after the reply loses it. `answer` is what it sends (`nil`: nothing).
public final class FakeBackgroundPortal: FakeBusProgram {
    public static let path = "/org/freedesktop/portal/desktop"
    public var answer: [DBusValue]?
    /// Each call's options, as received.
    public private(set) var calls: [[String: DBusValue]] = []
    /// The request path of each call.
    public private(set) var handles: [String] = []

    public init(answer: [DBusValue]?) {
        self.answer = answer
        super.init(busName: "org.freedesktop.portal.Desktop")
    }

    /// Answers the last request now.
    public func respond(_ answer: [DBusValue]) {
        if let handle = handles.last { sendSignal(handle, "org.freedesktop.portal.Request", "Response", answer) }
    }

    /// Allowed or not, as 1.16 answers: 0 with both booleans, or 1 with both false.
    public static func answer(allowed: Bool) -> [DBusValue] {
        [.uint32(allowed ? 0 : 1), .vardict([("background", .bool(allowed)), ("autostart", .bool(allowed))])]
    }

    override public func makeObjects() -> [ExportedObject] {
        [ExportedObject(path: ObjectPath(Self.path), interfaces: [
            Interface("org.freedesktop.portal.Background", doc: "The Background portal.", methods: [
                Method("RequestBackground", in: [Argument("parent_window", "s"), Argument("options", "a{sv}")],
                       out: [Argument("handle", "o")], doc: "Requests.") { [unowned self] call in
                    let options = call.arguments[1].stringDictionary ?? [:]
                    calls.append(options)
                    let sender = String(call.sender.dropFirst().map { $0 == "." ? "_" : $0 })
                    let handle = "/org/freedesktop/portal/desktop/request/\(sender)/\(options["handle_token"]?.string ?? "t")"
                    handles.append(handle)
                    if let answer { sendSignal(handle, "org.freedesktop.portal.Request", "Response", answer) }
                    return [.objectPath(ObjectPath(handle))]
                },
            ]),
        ])]
    }
}
