import Glibc
import CSystemd

/// Syslog priorities used by the journal.
public enum LogLevel: Int32, Sendable, Comparable {
    case error = 3, warning = 4, notice = 5, info = 6, debug = 7

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

    var label: String {
        switch self {
        case .error: return "error"
        case .warning: return "warning"
        case .notice: return "notice"
        case .info: return "info"
        case .debug: return "debug"
        }
    }
}

/// Structured logging to the journal (sd_journal_sendv) with a plain stderr
/// fallback when no journald runs, or when asked for.
public final class Log {
    /// Where lines go.
    public enum Target: Sendable { case journal, stderr }

    public let target: Target
    public let identifier: String
    /// Lines below this level are dropped.
    public var threshold: LogLevel

    /// `forceStderr` is `--log-stderr`. Otherwise the journal is used when its
    /// socket exists and stderr is not already the journal's stream.
    public init(identifier: String, forceStderr: Bool, threshold: LogLevel = .info) {
        self.identifier = identifier
        self.threshold = threshold
        if forceStderr || access("/run/systemd/journal/socket", F_OK) != 0 {
            target = .stderr
        } else {
            target = .journal
        }
    }

    /// Logs `message` with extra journal `fields` (upper-case names, e.g. `ICARE_STATE`).
    public func log(_ level: LogLevel, _ message: String, fields: [(String, String)] = []) {
        guard level <= threshold else { return }
        switch target {
        case .stderr:
            var line = "\(identifier): \(level <= .warning ? level.label + ": " : "")\(message)"
            for (k, v) in fields where level == .debug { line += " \(k)=\(v)" }
            line += "\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        case .journal:
            var entries = ["MESSAGE=\(message)", "PRIORITY=\(level.rawValue)", "SYSLOG_IDENTIFIER=\(identifier)"]
            for (k, v) in fields { entries.append("\(k)=\(v)") }
            Log.sendv(entries)
        }
    }

    public func error(_ m: String, fields: [(String, String)] = []) { log(.error, m, fields: fields) }
    public func warning(_ m: String, fields: [(String, String)] = []) { log(.warning, m, fields: fields) }
    public func notice(_ m: String, fields: [(String, String)] = []) { log(.notice, m, fields: fields) }
    public func info(_ m: String, fields: [(String, String)] = []) { log(.info, m, fields: fields) }
    public func debug(_ m: String, fields: [(String, String)] = []) { log(.debug, m, fields: fields) }

    private static func sendv(_ entries: [String]) {
        let cstrings = entries.map { strdup($0)! }
        defer { cstrings.forEach { free($0) } }
        var iov = cstrings.map { iovec(iov_base: UnsafeMutableRawPointer($0), iov_len: strlen($0)) }
        _ = iov.withUnsafeMutableBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) }
    }
}
