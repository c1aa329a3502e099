import Foundation
import TestSupport

/// The compositor's end of a socketpair, speaking the Wayland wire format
/// byte for byte: each message is the object id (u32), then the size in
/// bytes (high 16 bits, header included) and the opcode (low 16 bits), then
/// the arguments, each 32-bit aligned; a string is its length with the NUL,
/// the bytes and the NUL, padded to 4. Opcodes are the order of requests and
/// events in the protocol XML. The sequence it plays is sway 1.7's, as
/// WAYLAND_DEBUG=1 shows it for a client of the headless sway in the
/// integration tests (docs/wayland-idle.md).
final class FakeCompositor: @unchecked Sendable {
    /// A request the client sent.
    struct Request: CustomStringConvertible {
        let object: UInt32
        let opcode: UInt16
        let payload: [UInt8]

        func u32(_ index: Int) -> UInt32 {
            let o = index * 4
            return UInt32(payload[o]) | UInt32(payload[o + 1]) << 8 | UInt32(payload[o + 2]) << 16 | UInt32(payload[o + 3]) << 24
        }

        /// `wl_registry.bind`'s arguments: name, interface, version, new id.
        var bind: (name: UInt32, interface: String, version: UInt32, id: UInt32) {
            let length = Int(u32(1))
            let text = String(decoding: payload[8..<(8 + length - 1)], as: UTF8.self)
            let next = 2 + (length + 3) / 4
            return (u32(0), text, u32(next), u32(next + 1))
        }

        var description: String { "\(object).\(opcode) \(payload)" }
    }

    /// The client's fd (hand it to `WaylandIdleWatch(fd:)`).
    let clientFD: Int32
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Every request read so far.
    private(set) var requests: [Request] = []

    init() throws {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw HarnessError("socketpair failed: \(errno)")
        }
        fd = fds[0]
        clientFD = fds[1]
    }

    deinit { hangUp() }

    private var open = true

    /// Closes the compositor's end (a crash or logout).
    func hangUp() {
        guard open else { return }
        open = false
        close(fd)
    }

    /// Sends one event; false when the client has closed its end.
    @discardableResult
    func send(_ object: UInt32, _ opcode: UInt16, _ args: [Arg]) -> Bool {
        var body: [UInt8] = []
        for a in args { a.encode(into: &body) }
        var message: [UInt8] = []
        Arg.uint(object).encode(into: &message)
        Arg.uint(UInt32(8 + body.count) << 16 | UInt32(opcode)).encode(into: &message)
        message += body
        return sendRaw(message)
    }

    /// Sends bytes as they are; false when the client has closed its end.
    @discardableResult
    func sendRaw(_ bytes: [UInt8]) -> Bool {
        guard open else { return false }
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return n == bytes.count
    }

    enum Arg {
        case uint(UInt32)
        case string(String)

        func encode(into out: inout [UInt8]) {
            switch self {
            case .uint(let v):
                out += [UInt8(v & 0xff), UInt8(v >> 8 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 24)]
            case .string(let s):
                let bytes = Array(s.utf8) + [0]
                Arg.uint(UInt32(bytes.count)).encode(into: &out)
                out += bytes
                while out.count % 4 != 0 { out.append(0) }
            }
        }
    }

    /// Reads requests until `condition` holds for the list so far, at most `timeout` seconds.
    func waitFor(timeout: TimeInterval = 5, _ condition: ([Request]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(requests) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(left * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { return condition(requests) }
            buffer += chunk[0..<n]
            parse()
        }
        return true
    }

    private func parse() {
        while buffer.count >= 8 {
            let object = UInt32(buffer[0]) | UInt32(buffer[1]) << 8 | UInt32(buffer[2]) << 16 | UInt32(buffer[3]) << 24
            let word = UInt32(buffer[4]) | UInt32(buffer[5]) << 8 | UInt32(buffer[6]) << 16 | UInt32(buffer[7]) << 24
            let size = Int(word >> 16)
            guard size >= 8, buffer.count >= size else { return }
            requests.append(Request(object: object, opcode: UInt16(word & 0xffff), payload: Array(buffer[8..<size])))
            buffer.removeFirst(size)
        }
    }

    // MARK: the conversation of a real compositor

    /// The registry (object 2) and sync callback (object 3) the client asks
    /// for first; answers with `globals` (name, interface, version) and the
    /// callback's `done`, then `wl_display.delete_id` for it.
    func announce(_ globals: [(UInt32, String, UInt32)]) -> Bool {
        guard waitFor({ $0.count >= 2 }) else { return false }
        // wl_display.get_registry is opcode 1, wl_display.sync opcode 0.
        guard let registry = requests.first(where: { $0.object == 1 && $0.opcode == 1 })?.u32(0),
              let callback = requests.first(where: { $0.object == 1 && $0.opcode == 0 })?.u32(0) else { return false }
        for (name, interface, version) in globals {
            send(registry, 0, [.uint(name), .string(interface), .uint(version)])   // wl_registry.global
        }
        send(callback, 0, [.uint(1)])          // wl_callback.done
        send(1, 1, [.uint(callback)])          // wl_display.delete_id
        return true
    }

    /// The `wl_registry.bind` requests seen.
    var binds: [(name: UInt32, interface: String, version: UInt32, id: UInt32)] {
        requests.filter { $0.object == 2 && $0.opcode == 0 }.map(\.bind)
    }

    /// Requests sent to `object`.
    func requests(to object: UInt32) -> [Request] { requests.filter { $0.object == object } }

    /// sway 1.7's globals that matter here (the rest are left out; a client ignores them).
    static let sway17: [(UInt32, String, UInt32)] = [
        (1, "wl_shm", 1), (2, "wl_compositor", 4), (7, "org_kde_kwin_idle", 1),
        (8, "zwp_idle_inhibit_manager_v1", 1), (36, "wl_seat", 7), (38, "wl_output", 4),
    ]
}
