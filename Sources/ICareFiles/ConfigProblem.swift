import FileKit
import ReminderCore

/// A line of the config file that was not applied, as a log would show it.
public struct ConfigProblem: Equatable, Sendable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Equatable, Sendable {
        /// Ignored text that changes no setting (an unknown key, a foreign group, a repeated key).
        case warning
        /// A value or line iCare could not use; the setting kept its previous value.
        case error
    }

    /// The config file.
    public let path: String
    /// The 1-based line, or nil when the whole file is concerned.
    public let line: Int?
    /// Warning or error.
    public let severity: Severity
    /// One sentence (or two) a person can act on.
    public let message: String

    /// A problem in `path` at `line`.
    public init(path: String, line: Int?, severity: Severity, message: String) {
        self.path = path
        self.line = line
        self.severity = severity
        self.message = message
    }

    /// `path:line: severity: message`, as compilers and editors print it.
    public var description: String {
        let place = line.map { "\(path):\($0)" } ?? path
        return "\(place): \(severity.rawValue): \(message)"
    }
}

/// Why a setting could not be written to the config file.
public enum ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The value is not valid for the setting; nothing was written.
    case invalidValue(SettingError)
    /// A system call failed; the file is unchanged.
    case file(FileError)

    /// One sentence.
    public var description: String {
        switch self {
        case .invalidValue(let error): return error.reason
        case .file(let error): return error.description
        }
    }
}
