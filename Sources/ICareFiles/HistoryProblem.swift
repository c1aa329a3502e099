import FileKit
import ReminderCore

/// A part of the history that could not be read and was skipped.
public struct HistoryProblem: Equatable, Sendable, CustomStringConvertible {
    /// The day file.
    public let path: String
    /// The 1-based line, or nil when the whole file is concerned.
    public let line: Int?
    /// One sentence on what was wrong.
    public let message: String

    /// A problem in `path` at `line`.
    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    /// `path:line: message`, as compilers and editors print it.
    public var description: String {
        line.map { "\(path):\($0): \(message)" } ?? "\(path): \(message)"
    }
}

/// Why a break could not be added to the history.
public enum HistoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The record cannot be stored: a time outside 1970–9999, or an outcome
    /// that is empty or holds spaces or non-ASCII characters.
    case unstorable(BreakRecord, reason: String)
    /// A system call failed.
    case file(FileError)

    /// One sentence.
    public var description: String {
        switch self {
        case .unstorable(_, let reason): return reason
        case .file(let error): return error.description
        }
    }
}
