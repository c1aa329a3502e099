import Glibc

/// A failed system call on a file: which C function, on which path, and why.
///
/// The message reads like `open(/home/a/.config/icare/config): Permission denied`,
/// which is what a person needs to fix the cause.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C function that failed, e.g. `open`, `rename`, `fsync`.
    public let function: String
    /// The path it was called on (for `rename`, the destination).
    public let path: String
    /// The `errno` value it left.
    public let code: Int32
    /// A sentence part that says more than `strerror` can (e.g. "not a
    /// regular file but a named pipe"); nil for the C library's text.
    public let detail: String?

    /// A failure of `function` on `path` with the errno `code`.
    public init(function: String, path: String, code: Int32, detail: String? = nil) {
        self.function = function
        self.path = path
        self.code = code
        self.detail = detail
    }

    /// `detail`, or the C library's text for `code` (`strerror`).
    public var reason: String { detail ?? String(cString: strerror(code)) }

    /// True when the file or a directory on its path does not exist (`ENOENT`).
    public var isNotFound: Bool { code == ENOENT }

    /// True when the file is on a read-only mount (`EROFS`): under icared's unit, a folder it was not granted.
    public var isReadOnlyFileSystem: Bool { code == EROFS }

    /// `function(path): reason`.
    public var description: String { "\(function)(\(path)): \(reason)" }
}

/// Runs a system call, retrying on `EINTR`, and turns a negative result into
/// a `FileError` naming `function` and `path`. Of package access, for ICareFiles too.
@discardableResult
package func systemCall<Result: BinaryInteger>(
    _ function: String, _ path: String, _ call: () -> Result
) throws(FileError) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let code = errno
        if code != EINTR { throw FileError(function: function, path: path, code: code) }
    }
}
