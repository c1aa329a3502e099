import Glibc
import SystemdKit

/// One inotify watch on one folder, on an inotify fd of its own driven by
/// the loop (inotify_init1, inotify_add_watch, read). The handler gets each
/// event's mask and the name inside the folder.
///
/// Not `EventLoop.addInotify`: its handler copies the `inotify_event`
/// header before reading the name that follows it, so the names it passes
/// are not the event's; the names are what this watch is for.
final class InotifyWatch {
    private let fd: Int32
    private var source: EventSource?

    /// Watches `path` for `mask`; throws with the errno of the failing call (ENOENT when the folder is missing).
    init(loop: EventLoop, path: String, mask: UInt32, _ handler: @escaping (UInt32, String) -> Void) throws(SystemdError) {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SystemdError(function: "inotify_init1", errno: errno) }
        guard inotify_add_watch(fd, path, mask) >= 0 else {
            let code = errno
            close(fd)
            throw SystemdError(function: "inotify_add_watch", errno: code)
        }
        let fd = self.fd
        do {
            source = try loop.addIO(fd: fd, events: IOEvents.readable.rawValue) { _ in
                for (mask, name) in InotifyWatch.drain(fd) { handler(mask, name) }
            }
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { cancel() }

    /// Stops watching and closes the fd. Idempotent.
    func cancel() {
        guard let s = source else { return }
        source = nil
        s.cancel()
        close(fd)
    }

    /// Reads every pending event: a 16-byte header `{wd, mask, cookie, len}`
    /// in host byte order, then `len` bytes of NUL-padded name.
    private static func drain(_ fd: Int32) -> [(UInt32, String)] {
        var events: [(UInt32, String)] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return events }
            var at = 0
            while at + 16 <= n {
                let (mask, length) = buffer.withUnsafeBytes {
                    ($0.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self), Int($0.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self)))
                }
                let end = min(at + 16 + length, n)
                let nameBytes = buffer[(at + 16)..<end].prefix { $0 != 0 }
                events.append((mask, String(decoding: nameBytes, as: UTF8.self)))
                at = end
            }
        }
    }
}
