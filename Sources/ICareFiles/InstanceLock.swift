import Glibc
import FileKit

/// One icared per person: the icared that keeps the schedule and writes the
/// history holds an exclusive `flock` on `<state dir>/icared.lock`, and says
/// in that file who it is (`Holder`). Another icared for the same folders (a
/// second login without a systemd user session has its own bus, and so its
/// own icared) finds the lock taken and defers (docs/architecture.md, "One
/// icared per person").
///
/// The kernel drops a `flock` when the last descriptor of the open file goes,
/// also when the process is killed with SIGKILL, so nothing left behind can
/// stop the next icared; the file itself stays, as a lock file does. It works
/// across PID namespaces (the Flatpak's sandbox) and, on Linux's NFS client,
/// across machines sharing a home.
public final class InstanceLock {
    /// `<state dir>/icared.lock`.
    public let path: String
    private let file: FileDescriptor

    /// Opens (creating, `0600`) the lock file of `paths`; nothing is locked yet.
    /// Fails on what is not a regular file there (a named pipe cannot block the start).
    public init(paths: XDGPaths) throws(FileError) {
        path = paths.stateDirectory + "/icared.lock"
        try Directory.ensure(paths.stateDirectory)
        file = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_NOFOLLOW)
    }

    /// The descriptor the lock is taken on (for a wait on another thread: `EventLoop.addLockWait`).
    public var descriptor: Int32 { file.raw }

    /// Takes the lock if nobody holds it; false when another open file holds it.
    public func tryLock() throws(FileError) -> Bool {
        while flock(file.raw, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { return false }
            throw FileError(function: "flock", path: path, code: errno)
        }
        return true
    }

    /// Says who holds the lock: the file's whole text replaced (only the holder writes it).
    public func write(_ holder: Holder) throws(FileError) {
        _ = ftruncate(file.raw, 0)
        _ = lseek(file.raw, 0, SEEK_SET)
        try file.writeAll(Array(holder.text.utf8))
    }

    /// Who holds the lock, as its file says; nil when it says nothing readable
    /// (the holder is between truncating and writing, or it is not an icared's).
    public func holder() -> Holder? {
        guard lseek(file.raw, 0, SEEK_SET) == 0, let bytes = try? file.readAll(limit: Holder.maximumSize) else { return nil }
        return Holder(parsing: String(decoding: bytes, as: UTF8.self))
    }
}

/// Who keeps the schedule: what the icared holding the lock writes into it,
/// `pid=…`, `host=…` and `session=…` lines. Read as untrusted text: only
/// those keys, printable and short.
public struct Holder: Equatable, Sendable {
    /// The process id (in the holder's PID namespace: the Flatpak's sandbox has its own).
    public let pid: Int32
    /// The host name (homes shared over NFS have more than one).
    public let host: String
    /// The login session (`XDG_SESSION_ID`); "" when the session does not say.
    public let session: String

    static let maximumSize = 1024
    static let maximumField = 64

    public init(pid: Int32, host: String, session: String) {
        self.pid = pid
        self.host = Self.clean(host)
        self.session = Self.clean(session)
    }

    /// This process.
    public static func current() -> Holder {
        // The name read through one buffer pointer: Debian 13's Swift 6.0.3 crashed reading it back from
        // a [UInt8] passed as `&name` where C takes `char *`.
        var name = [CChar](repeating: 0, count: 256)
        let host = name.withUnsafeMutableBufferPointer { buffer -> String in
            guard let base = buffer.baseAddress, gethostname(base, buffer.count - 1) == 0 else { return "" }
            return String(decoding: UnsafeRawBufferPointer(buffer).prefix { $0 != 0 }, as: UTF8.self)
        }
        return Holder(pid: getpid(), host: host, session: getenv("XDG_SESSION_ID").map { String(cString: $0) } ?? "")
    }

    /// The file's text.
    public var text: String { "pid=\(pid)\nhost=\(host)\nsession=\(session)\n" }

    /// The holder in `text`; nil without a positive pid.
    public init?(parsing text: String) {
        var pid: Int32 = 0, host = "", session = ""
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            let value = String(line[line.index(after: eq)...])
            switch line[..<eq] {
            case "pid": pid = Int32(value) ?? 0
            case "host": host = value
            case "session": session = value
            default: continue
            }
        }
        guard pid > 0 else { return nil }
        self.init(pid: pid, host: host, session: session)
    }

    /// Printable ASCII without `=`, at most `maximumField` characters: what a
    /// log line or a property can carry as it is.
    static func clean(_ s: String) -> String {
        String(String(decoding: s.utf8.filter { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "=") }, as: UTF8.self)
            .prefix(maximumField))
    }
}
