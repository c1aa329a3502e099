import FileKit

/// The small text file that carries the schedule across a restart of
/// `icared` (`<state dir>/state`). The engine decides what the text says;
/// this type only keeps it safe: every write replaces the file atomically.
public struct StateFile: Sendable {
    /// Where the file lives.
    public let path: String

    /// The state file at `path`.
    public init(path: String) { self.path = path }

    /// The state file of `paths` (`$XDG_STATE_HOME/icare/state`).
    public init(paths: XDGPaths) { self.init(path: paths.stateFile) }

    /// The text last written, or nil when there is none yet. Bytes that are
    /// not UTF-8 are replaced (the engine must treat the text as untrusted).
    public func read() throws(FileError) -> String? {
        guard let bytes = try AtomicFile.readIfPresent(path, limit: 1 << 20) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Replaces the file with `text` (temp file, `fsync`, `rename`), creating
    /// the state directory (`0700`) if needed; the file is `0600`.
    public func write(_ text: String) throws(FileError) {
        try Directory.ensure(Directory.parent(of: path))
        try AtomicFile.write(text, to: path)
    }
}
