import Glibc

/// An open file descriptor that is closed when the last reference goes away.
///
/// Glue over `open`, `read`, `pread`, `write`, `fsync`, `fstat` and `close`;
/// every failure becomes a `FileError` naming the C function and path. Of
/// package access: ICareFiles' history store appends and reads through it.
package final class FileDescriptor {
    /// The kernel's descriptor.
    package let raw: Int32
    /// The path it was opened with, for error messages.
    let path: String

    private init(raw: Int32, path: String) {
        self.raw = raw
        self.path = path
    }

    deinit { close(raw) }

    /// Opens `path` with `open(2)`; `O_CLOEXEC` is always added.
    ///
    /// Only a regular file is accepted (a directory when `flags` hold
    /// `O_DIRECTORY`): the file is opened with `O_NONBLOCK`, so a named pipe
    /// or a device put in a file's place cannot block the service in `open`,
    /// then `fstat` decides and anything else fails with a sentence saying
    /// what is there. `O_NONBLOCK` is cleared again for the regular file.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(FileError) -> FileDescriptor {
        let fd = try systemCall("open", path) { Glibc.open(path, flags | O_CLOEXEC | O_NONBLOCK, mode) }
        let file = FileDescriptor(raw: fd, path: path)
        var info = stat()
        try systemCall("fstat", path) { fstat(fd, &info) }
        let wanted = flags & O_DIRECTORY != 0 ? S_IFDIR : S_IFREG
        guard info.st_mode & S_IFMT == wanted else {
            throw FileError(function: "open", path: path, code: wanted == S_IFDIR ? ENOTDIR : EINVAL,
                            detail: "not a \(wanted == S_IFDIR ? "directory" : "regular file") but \(kind(info.st_mode))")
        }
        let status = try systemCall("fcntl", path) { fcntl(fd, F_GETFL) }
        try systemCall("fcntl", path) { fcntl(fd, F_SETFL, status & ~O_NONBLOCK) }
        return file
    }

    /// What the file type bits of `mode` name, for an error message.
    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a named pipe"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFREG: return "a regular file"
        default: return "something else"
        }
    }

    /// Opens a directory for `fsync` (`open` with `O_RDONLY | O_DIRECTORY`).
    static func openDirectory(_ path: String) throws(FileError) -> FileDescriptor {
        try open(path, O_RDONLY | O_DIRECTORY)
    }

    /// The size in bytes (`fstat`).
    package func size() throws(FileError) -> Int {
        var info = stat()
        try systemCall("fstat", path) { fstat(raw, &info) }
        return Int(info.st_size)
    }

    /// The permission bits (`fstat`), e.g. `0o600`.
    func permissions() throws(FileError) -> mode_t {
        var info = stat()
        try systemCall("fstat", path) { fstat(raw, &info) }
        return info.st_mode & 0o7777
    }

    /// Reads from the current offset into `buffer`, returning how many bytes
    /// came (0 at the end) (`read`).
    package func read(into buffer: inout [UInt8]) throws(FileError) -> Int {
        try systemCall("read", path) {
            buffer.withUnsafeMutableBytes { Glibc.read(raw, $0.baseAddress, $0.count) }
        }
    }

    /// Reads from the current offset to the end, at most `limit` bytes (`read`).
    package func readAll(limit: Int) throws(FileError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let n = try systemCall("read", path) {
                chunk.withUnsafeMutableBytes { Glibc.read(raw, $0.baseAddress, wanted) }
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// The byte at `offset`, or nil past the end (`pread`).
    package func byte(at offset: Int) throws(FileError) -> UInt8? {
        var one: UInt8 = 0
        let n = try systemCall("pread", path) { pread(raw, &one, 1, off_t(offset)) }
        return n == 1 ? one : nil
    }

    /// Writes every byte, looping over short writes (`write`).
    package func writeAll(_ bytes: [UInt8]) throws(FileError) {
        var done = 0
        while done < bytes.count {
            let n = try systemCall("write", path) {
                bytes.withUnsafeBytes { write(raw, $0.baseAddress! + done, $0.count - done) }
            }
            done += n
        }
    }

    /// Flushes data and metadata to the disk (`fsync`).
    package func sync() throws(FileError) {
        try systemCall("fsync", path) { fsync(raw) }
    }
}
