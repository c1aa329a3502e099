import Glibc
import CDBus
import SystemdKit

/// A connection to a message bus, driven by an sd-event loop on one thread.
/// Incoming method calls go to exported objects, signals to subscriptions,
/// replies to the callbacks of async calls.
public final class Connection {
    /// The `DBusConnection*` (a private connection, owned).
    public let raw: OpaquePointer
    /// The loop that drives it.
    public let loop: EventLoop
    /// Called once when the bus goes away (`org.freedesktop.DBus.Local.Disconnected`).
    public var onDisconnect: (() -> Void)?

    var io: [Int32: IOEntry] = [:]
    var timeouts: [OpaquePointer: EventSource] = [:]
    var dispatchSource: EventSource?
    var subscriptions: [Int: Subscription] = [:]
    var nextSubscriptionID = 0
    var owners: [String: String] = [:]
    var nameWatchers: [String: NameTracking] = [:]
    var objects: [String: ExportedObject] = [:]
    private var closed = false
    /// libdbus stops reading from the socket while this many bytes of
    /// received messages wait to be handled (its default is 63 MB): peers
    /// that send large messages at once are taken one after another, and
    /// memory stays bounded.
    static let receiveQueueLimit = 4 << 20
    private let filter: DBusHandleMessageFunction = { _, message, userdata in
        let connection = Unmanaged<Connection>.fromOpaque(userdata!).takeUnretainedValue()
        return connection.handleIncoming(Message(retaining: message!))
    }

    /// The bus kinds `dbus_bus_get_private` knows.
    public enum Bus: Sendable {
        /// `DBUS_SESSION_BUS_ADDRESS`, or the user's bus.
        case session
        /// `DBUS_SYSTEM_BUS_ADDRESS`, or /run/dbus/system_bus_socket.
        case system
        var cType: DBusBusType { self == .session ? DBUS_BUS_SESSION : DBUS_BUS_SYSTEM }
    }

    /// Connects to a bus and registers with it (dbus_bus_get_private). Turns
    /// off libdbus's exit-on-disconnect: `onDisconnect` is called instead.
    public convenience init(bus: Bus, loop: EventLoop) throws(DBusError) {
        let c = try withCError { e in dbus_bus_get_private(bus.cType, &e) }
        guard let c else { throw DBusError.failed("Could not connect to the \(bus == .session ? "session" : "system") bus.") }
        try self.init(adopting: c, loop: loop)
    }

    /// Connects to a bus at `address` and registers with it (dbus_connection_open_private, dbus_bus_register).
    public convenience init(address: String, loop: EventLoop) throws(DBusError) {
        let c = try withCError { e in dbus_connection_open_private(address, &e) }
        guard let c else { throw DBusError.failed("Could not connect to \(address).") }
        do {
            _ = try withCError { e in dbus_bus_register(c, &e) }
        } catch {
            dbus_connection_close(c)
            dbus_connection_unref(c)
            throw error
        }
        try self.init(adopting: c, loop: loop)
    }

    private init(adopting c: OpaquePointer, loop: EventLoop) throws(DBusError) {
        raw = c
        self.loop = loop
        dbus_connection_set_exit_on_disconnect(c, 0)
        dbus_connection_set_max_received_size(c, Connection.receiveQueueLimit)
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard dbus_connection_add_filter(c, filter, me, nil) != 0 else { throw DBusError.noMemory() }
        try attachToLoop()
    }

    deinit { close() }

    /// Detaches from the loop and closes the connection. Idempotent.
    public func close() {
        guard !closed else { return }
        closed = true
        dbus_connection_flush(raw)
        dbus_connection_remove_filter(raw, filter, Unmanaged.passUnretained(self).toOpaque())
        detachFromLoop()
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    /// Our unique name on the bus, e.g. `:1.42`.
    public var uniqueName: String {
        dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
    }

    /// Whether the connection is still up.
    public var isConnected: Bool { !closed && dbus_connection_get_is_connected(raw) != 0 }

    /// Writes out everything queued (dbus_connection_flush); blocks briefly.
    public func flush() { if !closed { dbus_connection_flush(raw) } }

    // MARK: sending

    /// Queues a message (dbus_connection_send); the loop writes it out.
    public func send(_ message: Message) {
        guard !closed else { return }
        dbus_connection_send(raw, message.raw, nil)
    }

    /// Sends a method call; `reply` runs on the loop with the reply or the error
    /// (dbus_connection_send_with_reply). `timeoutMs` -1 is libdbus's default (25 s).
    public func call(_ message: Message, timeoutMs: Int32 = -1, reply: @escaping (Result<Message, DBusError>) -> Void) {
        var pending: OpaquePointer?
        guard !closed, dbus_connection_send_with_reply(raw, message.raw, &pending, timeoutMs) != 0, let pending else {
            deliverLater(reply, .failure(.disconnected("The bus connection is closed.")))
            return
        }
        if dbus_pending_call_get_completed(pending) != 0 {
            let r = Connection.result(of: pending)
            dbus_pending_call_unref(pending)
            deliverLater(reply, r)
            return
        }
        let box = Unmanaged.passRetained(ReplyBox(reply)).toOpaque()
        dbus_pending_call_set_notify(pending, { pending, userdata in
            let handler = Unmanaged<ReplyBox>.fromOpaque(userdata!).takeUnretainedValue().handler
            handler(Connection.result(of: pending!))
        }, box, { userdata in
            Unmanaged<ReplyBox>.fromOpaque(userdata!).release()
        })
        dbus_pending_call_unref(pending)
    }

    /// Sends a method call and waits for its reply (dbus_connection_send_with_reply_and_block).
    /// For command-line tools; a service uses `call(_:reply:)`.
    public func callBlocking(_ message: Message, timeoutMs: Int32 = -1) throws(DBusError) -> Message {
        guard !closed else { throw DBusError.disconnected("The bus connection is closed.") }
        let r = try withCError { e in dbus_connection_send_with_reply_and_block(raw, message.raw, timeoutMs, &e) }
        guard let r else { throw DBusError.failed("No reply.") }
        return Message(adopting: r)
    }

    private static func result(of pending: OpaquePointer) -> Result<Message, DBusError> {
        guard let r = dbus_pending_call_steal_reply(pending) else { return .failure(.failed("No reply.")) }
        let m = Message(adopting: r)
        if let err = m.error { return .failure(err) }
        return .success(m)
    }

    private func deliverLater(_ reply: @escaping (Result<Message, DBusError>) -> Void, _ r: Result<Message, DBusError>) {
        var holder: EventSource?
        holder = try? loop.addDefer {
            reply(r)
            holder?.cancel()
            holder = nil
        }
    }

    // MARK: names

    /// The answers to RequestName.
    public enum NameReply: UInt32, Sendable { case primaryOwner = 1, inQueue = 2, exists = 3, alreadyOwner = 4 }

    /// Asks for a well-known name (dbus_bus_request_name); blocks for the reply.
    /// `replaceExisting` takes it from an owner that allowed it (`allowReplacement`).
    public func requestName(_ name: BusName, doNotQueue: Bool = true, replaceExisting: Bool = false,
                            allowReplacement: Bool = false) throws(DBusError) -> NameReply {
        var flags: UInt32 = 0
        if doNotQueue { flags |= UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE) }
        if allowReplacement { flags |= UInt32(DBUS_NAME_FLAG_ALLOW_REPLACEMENT) }
        if replaceExisting { flags |= UInt32(DBUS_NAME_FLAG_REPLACE_EXISTING) }
        let r = try withCError { e in dbus_bus_request_name(raw, name.rawValue, flags, &e) }
        return NameReply(rawValue: UInt32(r)) ?? .exists
    }

    // MARK: incoming

    func handleIncoming(_ message: Message) -> DBusHandlerResult {
        switch message.kind {
        case .signal:
            if message.isSignal("org.freedesktop.DBus.Local", "Disconnected") {
                let handler = onDisconnect
                onDisconnect = nil
                handler?()
                return DBUS_HANDLER_RESULT_HANDLED
            }
            deliverSignal(message)
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        case .methodCall:
            dispatchMethodCall(message)
            return DBUS_HANDLER_RESULT_HANDLED
        default:
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }
}

final class ReplyBox {
    let handler: (Result<Message, DBusError>) -> Void
    init(_ handler: @escaping (Result<Message, DBusError>) -> Void) { self.handler = handler }
}

extension Connection {
    /// Gives up a well-known name (dbus_bus_release_name); blocks for the reply.
    public func releaseName(_ name: BusName) throws(DBusError) {
        _ = try withCError { e in dbus_bus_release_name(raw, name.rawValue, &e) }
    }
}
