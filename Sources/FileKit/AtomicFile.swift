import Glibc

/// Whole-file reads and crash-safe whole-file replacement.
///
/// A replacement never leaves a half-written file behind: the new contents
/// go to a temporary file in the same directory (created `0600` with
/// `O_EXCL`), are `fsync`ed, renamed over the old file, and the directory is
/// `fsync`ed so the rename itself survives a power cut.
public enum AtomicFile {
    /// The largest file `read` accepts by default: iCare's files are a few KB.
    public static let defaultLimit = 4 << 20

    /// The whole contents of `path` (`open`, `read`). A file larger than
    /// `limit` bytes fails with `EFBIG` rather than filling memory.
    public static func read(_ path: String, limit: Int = defaultLimit) throws(FileError) -> [UInt8] {
        let file = try FileDescriptor.open(path, O_RDONLY)
        let bytes = try file.readAll(limit: limit + 1)
        guard bytes.count <= limit else { throw FileError(function: "read", path: path, code: EFBIG) }
        return bytes
    }

    /// The contents of `path`, or nil when it does not exist.
    public static func readIfPresent(_ path: String, limit: Int = defaultLimit) throws(FileError) -> [UInt8]? {
        do {
            return try read(path, limit: limit)
        } catch where error.isNotFound {
            return nil
        }
    }

    /// Replaces `path` with `bytes` atomically; the file ends up with mode
    /// `0600`. The directory must exist (see `Directory.ensure`).
    public static func write(_ bytes: [UInt8], to path: String) throws(FileError) {
        let directory = Directory.parent(of: path)
        let temporary = temporaryPath(for: path)
        do {
            let file = try createExclusive(temporary)
            try file.writeAll(bytes)
            try file.sync()
            try systemCall("rename", path) { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw error
        }
        try Directory.sync(directory.isEmpty ? "." : directory)
    }

    /// Replaces `path` with the UTF-8 of `text` atomically.
    public static func write(_ text: String, to path: String) throws(FileError) {
        try write(Array(text.utf8), to: path)
    }

    /// Creates the temporary file; one left by a crashed process that had
    /// the same pid is removed first.
    private static func createExclusive(_ temporary: String) throws(FileError) -> FileDescriptor {
        let flags = O_WRONLY | O_CREAT | O_EXCL
        do {
            return try FileDescriptor.open(temporary, flags, mode: 0o600)
        } catch where error.code == EEXIST {
            unlink(temporary)
            return try FileDescriptor.open(temporary, flags, mode: 0o600)
        }
    }

    /// `dir/.name.<pid>.tmp`: hidden, in the same directory (rename must not
    /// cross file systems), and unique per process so two writers never share one.
    static func temporaryPath(for path: String) -> String {
        let directory = Directory.parent(of: path)
        let name = path.utf8.split(separator: UInt8(ascii: "/")).last.map { String(decoding: $0, as: UTF8.self) } ?? path
        let hidden = ".\(name).\(getpid()).tmp"
        return directory.isEmpty ? hidden : (directory == "/" ? "/" + hidden : directory + "/" + hidden)
    }
}
