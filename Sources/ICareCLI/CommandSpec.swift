/// An option of a command, as declared in the command table.
public struct OptionSpec: Sendable {
    /// Without dashes: `json`.
    public let long: String
    public let short: Character?
    /// The value's placeholder (`N`), or nil for a flag.
    public let valueName: String?
    public let help: String
    /// Values to offer in completions.
    public let values: [String]

    public init(_ long: String, short: Character? = nil, value: String? = nil, values: [String] = [], help: String) {
        self.long = long
        self.short = short
        self.valueName = value
        self.values = values
        self.help = help
    }

    /// `-h, --help`, `--days N`.
    var synopsis: String {
        (short.map { "-\($0), " } ?? "") + "--" + long + (valueName.map { " " + $0 } ?? "")
    }
}

/// A positional argument, as declared in the command table.
public struct ArgumentSpec: Sendable {
    /// The placeholder shown in usage: `DURATION`, `KEY`.
    public let name: String
    public let optional: Bool
    public let help: String
    /// Values to offer in completions.
    public let values: [String]
    /// Values to offer instead when the argument before this one is the
    /// given word (any case): `set dndpolicy` → pause, defer, ignore.
    public let valuesAfter: [(word: String, values: [String])]
    public init(_ name: String, optional: Bool = false, values: [String] = [],
                valuesAfter: [(word: String, values: [String])] = [], help: String) {
        self.name = name
        self.optional = optional
        self.values = values
        self.valuesAfter = valuesAfter
        self.help = help
    }
}

/// What the parser found for one command, before validation.
public struct ParsedArguments: Equatable, Sendable {
    public var positionals: [String] = []
    /// Flags given, by long name.
    public var flags: Set<String> = []
    /// Option values, by long name (the last one wins).
    public var values: [String: String] = [:]
    public init() {}
}

/// A command: its name, words, arguments and options, and the function that
/// validates a parse into a `Command`. Help, usage, completions, the man page
/// and the parser all read these declarations.
public struct CommandSpec: Sendable {
    public let name: String
    /// A short line for lists.
    public let summary: String
    /// A paragraph for `--help` and the man page.
    public let discussion: String
    public let arguments: [ArgumentSpec]
    /// The most positional words accepted (`pause until 17:30` takes two).
    public let maxPositionals: Int
    public let options: [OptionSpec]
    public let examples: [String]
    /// Turns parsed words into a `Command`, or a usage error.
    public let validate: @Sendable (ParsedArguments) throws(CLIError) -> Command

    public init(_ name: String, summary: String, discussion: String, arguments: [ArgumentSpec] = [],
                maxPositionals: Int? = nil, options: [OptionSpec] = [], examples: [String] = [],
                validate: @escaping @Sendable (ParsedArguments) throws(CLIError) -> Command) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.arguments = arguments
        self.maxPositionals = maxPositionals ?? arguments.count
        self.options = options
        self.examples = examples
        self.validate = validate
    }

    /// The options as the parser accepts them: the declared ones plus `--help` and `--no-color`.
    public var allOptions: [OptionSpec] { options + CommandTable.commonOptions }

    /// `icarectl snooze [DURATION]`.
    public var usage: String {
        var words = ["icarectl", name]
        for a in arguments { words.append(a.optional ? "[\(a.name)]" : a.name) }
        for o in options { words.append("[--\(o.long)\(o.valueName.map { " " + $0 } ?? "")]") }
        return words.joined(separator: " ")
    }
}
