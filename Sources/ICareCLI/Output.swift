import Glibc

/// Writes to a file descriptor with `write(2)` (Glibc's `stdout` global is
/// off-limits under strict concurrency), retrying short writes and EINTR.
public struct Output: Sendable {
    public let fd: Int32
    public static let standard = Output(fd: 1)
    public static let error = Output(fd: 2)

    /// Whether the descriptor is a terminal.
    public var isTerminal: Bool { isatty(fd) == 1 }

    /// Writes all of `text`; false when the reader has gone (EPIPE) or another error.
    @discardableResult
    public func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }
}
