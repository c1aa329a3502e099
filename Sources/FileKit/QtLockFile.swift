import Glibc

/// The lock Qt's QSettings takes before it writes a settings file: the file
/// `<settings file>.lock`, made as QLockFile makes it (read from Qt 5.15 and
/// 6.8, `qlockfile_unix.cpp`): created with `O_EXCL`, held with `flock`,
/// holding `pid`, the program's name, the host name, the machine id and the
/// boot id, one a line. Another program's lock is stale (and is removed, as
/// Qt removes it) when its process is gone from this host or it is older
/// than 30 s. Used to write KDE Connect's settings beside it (docs/phones.md).
public final class QtLockFile {
    public let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit {
        unlink(path)
        close(fd)
    }

    /// Why the lock could not be taken now.
    public enum Refusal: Error, Equatable {
        /// Another live program holds it: try again shortly.
        case held
        /// It cannot be made (read-only folder, no permission).
        case failed(FileError)
    }

    /// Takes the lock for `file` (its `.lock` beside it), removing a stale one first.
    public static func lock(_ file: String, staleAfterSeconds: Int = 30) throws(Refusal) -> QtLockFile {
        let path = file + ".lock"
        for _ in 0..<2 {
            let fd = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 {
                let lock = QtLockFile(path: path, fd: fd)
                guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { throw .failed(FileError(function: "flock", path: path, code: errno)) }
                let contents = Array(contentsLine().utf8)
                let written = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                guard written == contents.count else { throw .failed(FileError(function: "write", path: path, code: errno)) }
                return lock
            }
            let code = errno
            guard code == EEXIST else { throw .failed(FileError(function: "open", path: path, code: code)) }
            guard isStale(path, staleAfterSeconds: staleAfterSeconds), removeStale(path) else { throw .held }
        }
        throw .held
    }

    /// What QLockFile writes: pid, name, host, machine id, boot id.
    private static func contentsLine() -> String {
        "\(getpid())\n\(programName(getpid()) ?? "")\n\(hostName())\n\(firstLine("/etc/machine-id") ?? "")\n\(firstLine("/proc/sys/kernel/random/boot_id") ?? "")\n"
    }

    /// As QLockFile decides it: on this host (and machine, and boot) a lock whose process is gone or is
    /// another program is stale; any lock older than the stale time is.
    static func isStale(_ path: String, staleAfterSeconds: Int) -> Bool {
        guard let bytes = try? AtomicFile.read(path, limit: 4096) else { return false }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if parts.count >= 3, let pid = Int32(parts[0]), pid > 0, parts[2].isEmpty || parts[2] == hostName(),
           parts.count < 4 || parts[3].isEmpty || parts[3] == firstLine("/etc/machine-id") ?? "" {
            if kill(pid, 0) == -1 && errno == ESRCH { return true }
            if let running = programName(pid), !parts[1].isEmpty, running != baseName(parts[1]) { return true }
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return abs(Int(time(nil)) - Int(info.st_mtim.tv_sec)) > staleAfterSeconds
    }

    /// Removes a stale lock only if nobody holds it (`flock`), as Qt does.
    private static func removeStale(_ path: String) -> Bool {
        let fd = Glibc.open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) == 0 && unlink(path) == 0
    }

    /// The file name of `/proc/PID/exe`, as Qt's `processNameByPid`.
    private static func programName(_ pid: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        var target = String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if target.hasSuffix(" (deleted)") { target.removeLast(10) }
        return baseName(target)
    }

    private static func baseName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func firstLine(_ path: String) -> String? {
        guard let bytes = try? AtomicFile.read(path, limit: 256) else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}
