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
    /// Control characters in `message` and in field values are escaped (see
    /// `escaped`): text from outside (a config line, a peer's name) cannot
    /// forge a log line, move a terminal's cursor or cut a journal field.
    public func log(_ level: LogLevel, _ message: String, fields: [(String, String)] = []) {
        guard level <= threshold else { return }
        let message = Log.escaped(message)
        let fields = fields.map { ($0.0, Log.escaped($0.1)) }
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

    /// `text` with every control character (C0, DEL, C1) written as `\xNN`
    /// (or `\u{NNNN}` for the line and paragraph separators); everything
    /// else, other scripts and emoji included, as it is.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let escape = scalar.value < 0x100
                ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                : "\\u{" + hex + "}"
            out.append(contentsOf: escape.unicodeScalars)
        }
        return String(out)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029
    }
}
