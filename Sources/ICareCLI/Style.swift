/// ANSI colour when it is wanted (a terminal, no `NO_COLOR`, no `--no-color`,
/// not `TERM=dumb`), else plain text: every call returns its input unchanged.
public struct Style: Sendable {
    public let enabled: Bool
    public init(enabled: Bool) { self.enabled = enabled }
    public static let plain = Style(enabled: false)

    /// Whether to colour output going to `fd`, from the environment and the flag.
    public static func decide(noColorFlag: Bool, environment: [String: String], isTerminal: Bool) -> Style {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let dumb = environment["TERM"] == "dumb"
        return Style(enabled: isTerminal && !noColorFlag && !noColor && !dumb)
    }

    func wrap(_ code: String, _ s: String) -> String { enabled ? "\u{1B}[" + code + "m" + s + "\u{1B}[0m" : s }
    public func bold(_ s: String) -> String { wrap("1", s) }
    public func dim(_ s: String) -> String { wrap("2", s) }
    public func green(_ s: String) -> String { wrap("32", s) }
    public func yellow(_ s: String) -> String { wrap("33", s) }
    public func red(_ s: String) -> String { wrap("31", s) }
    public func cyan(_ s: String) -> String { wrap("36", s) }
    public func magenta(_ s: String) -> String { wrap("35", s) }

    /// A state name in its colour.
    public func state(_ state: String, _ s: String) -> String {
        switch state {
        case "waiting": return green(s)
        case "due": return yellow(s)
        case "break": return cyan(s)
        case "snoozed": return magenta(s)
        default: return dim(s)
        }
    }
}
