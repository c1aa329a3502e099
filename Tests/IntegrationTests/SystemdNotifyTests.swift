import Testing
import Foundation
import TestSupport

/// A stand-in for the service manager's notify socket: a unix datagram
/// socket that collects what `sd_notify` sends.
final class NotifySocket: @unchecked Sendable {
    let path: String
    private let fd: Int32

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("icare-notify-\(UUID().uuidString)").path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket failed") }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            let bytes = Array(path.utf8)
            for (i, b) in bytes.enumerated() where i < raw.count - 1 { raw[i] = b }
        }
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0 else { throw HarnessError("bind \(path) failed") }
        var tv = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Datagrams received within `seconds`, each with its arrival time.
    func collect(for seconds: TimeInterval, until stop: ([String]) -> Bool = { _ in false }) -> [(Date, String)] {
        var out: [(Date, String)] = []
        let deadline = Date().addingTimeInterval(seconds)
        var buf = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            let n = recv(fd, &buf, buf.count, 0)
            if n > 0 {
                out.append((Date(), String(decoding: buf[0..<n], as: UTF8.self)))
                if stop(out.map(\.1)) { break }
            }
        }
        return out
    }

    deinit {
        close(fd)
        unlink(path)
    }
}

@Suite struct SystemdNotifyTests {
    @Test func readyStatusWatchdogAndStopping() throws {
        let notify = try NotifySocket()
        // WATCHDOG_USEC=400 ms: sd-event pings at half of it, about every 200 ms.
        let s = try ServiceHarness(environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "400000"])
        let first = notify.collect(for: 5) { $0.contains { $0.contains("READY=1") } }
        let ready = first.first { $0.1.contains("READY=1") }
        #expect(ready != nil, "no READY=1 in \(first.map(\.1))")
        #expect(ready?.1.contains("STATUS=next break at ") == true, "\(ready?.1 ?? "")")

        let window = notify.collect(for: 2)
        let pings = window.filter { $0.1.contains("WATCHDOG=1") }
        #expect(pings.count >= 6 && pings.count <= 14, "\(pings.count) WATCHDOG=1 in 2 s at a 400 ms watchdog")

        _ = try s.call("Pause", "u", "600")
        let status = notify.collect(for: 3) { $0.contains { $0.contains("STATUS=paused until") } }
        #expect(status.contains { $0.1.contains("STATUS=paused until") }, "\(status.map(\.1))")

        #expect(try s.signal(SIGTERM) == 0)
        let end = notify.collect(for: 3) { $0.contains { $0.contains("STOPPING=1") } }
        #expect(end.contains { $0.1.contains("STOPPING=1") }, "\(end.map(\.1))")
    }
}
