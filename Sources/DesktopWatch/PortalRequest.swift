import DBusKit

/// One call to an xdg-desktop-portal method that answers later
/// (`org.freedesktop.portal.Request`): the call returns the path of a request
/// object, and the answer is that object's `Response` signal,
/// `(u response, a{sv} results)` with 0 for success, 1 when the person
/// cancelled, 2 when it ended otherwise. The path is known before the call,
/// from the caller's unique name and the `handle_token` option, so the
/// subscription is in place before the answer can come (docs/flatpak.md,
/// "The portals").
public final class PortalRequest {
    public static let portal = BusName("org.freedesktop.portal.Desktop")
    public static let path = ObjectPath("/org/freedesktop/portal/desktop")

    public enum Answer {
        case success([String: DBusValue])
        case cancelled
        case ended
        /// No portal answered the call, or it refused it; the sentence says why.
        case failed(String)
    }

    private let connection: Connection
    private var subscription: SignalSubscription?
    private var listening = ""
    private var answer: ((Answer) -> Void)?

    public init(connection: Connection) { self.connection = connection }

    /// The path a portal gives the object a caller's `token` names (`kind`: `request` or `session`): the
    /// caller's unique name without its ':' and with '_' for each '.', then the token.
    public static func handle(_ kind: String, for connection: Connection, token: String) -> String {
        "/org/freedesktop/portal/desktop/\(kind)/" + String(connection.uniqueName.dropFirst().map { $0 == "." ? "_" : $0 }) + "/" + token
    }

    /// Calls `interface.method(arguments…, options + handle_token)` on the portal; `answer` runs once.
    public func send(_ interface: String, _ method: String, _ arguments: [DBusValue], options: [(String, DBusValue)],
                     token: String, answer: @escaping (Answer) -> Void) {
        self.answer = answer
        listen(Self.handle("request", for: connection, token: token))
        let call = Message.methodCall(destination: Self.portal, path: Self.path, interface: InterfaceName(interface),
                                      member: MemberName(method),
                                      arguments: arguments + [.vardict(options + [("handle_token", .string(token))])])
        connection.call(call, timeoutMs: 30_000) { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let error):
                self.finish(.failed("\(interface).\(method): \(error.description)"))
            case .success(let reply):
                // A portal older than handle_token names another path: follow that one.
                if let handle = reply.single("o")?.objectPath?.rawValue, handle != self.listening { self.listen(handle) }
            }
        }
    }

    private func listen(_ path: String) {
        listening = path
        subscription = connection.subscribe(MatchRule(sender: Self.portal.rawValue, path: path,
                                                      interface: "org.freedesktop.portal.Request", member: "Response")) {
            [weak self] message in
            guard let self else { return }
            guard let args = try? message.arguments(), args.count == 2, let code = args[0].uint32,
                  let results = args[1].stringDictionary else {
                return self.finish(.failed("its Response came with \(message.signatureForLog) instead of 'ua{sv}'"))
            }
            self.finish(code == 0 ? .success(results) : code == 1 ? .cancelled : .ended)
        }
    }

    private func finish(_ result: Answer) {
        subscription = nil
        guard let answer else { return }
        self.answer = nil
        answer(result)
    }
}
