/// The CLI's whole error vocabulary. `ExitStatus` maps it to exit codes in one place.
public enum CLIError: Error, Equatable, Sendable {
    /// The command line is wrong: a sentence, and the command whose usage to show (nil: the top level).
    case usage(String, command: String?)
    /// The command could not be carried out: one sentence for a person.
    case failure(String)

    /// The sentence.
    public var message: String {
        switch self {
        case .usage(let m, _), .failure(let m): return m
        }
    }
}

/// Exit statuses (sysexits' EX_USAGE for usage errors).
public enum ExitStatus {
    public static let ok: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64

    /// The status for an error.
    public static func of(_ error: CLIError) -> Int32 {
        switch error {
        case .usage: return usage
        case .failure: return failure
        }
    }
}
