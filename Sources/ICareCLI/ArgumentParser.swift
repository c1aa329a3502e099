import Localization

/// Turns `argv` into an `Invocation` using only `CommandTable`'s declarations:
/// first the words are matched to the command's options and arguments
/// (unknown ones are usage errors with a suggestion), then the command's own
/// `validate` checks their meaning.
public enum ArgumentParser {
    /// Parses the arguments after the program name.
    public static func parse(_ arguments: [String]) throws(CLIError) -> Invocation {
        var args = arguments
        var noColor = false
        // Top-level options before any command word.
        while let first = args.first, first.hasPrefix("-"), first != "-", first != "--" {
            let (name, inline) = split(first)
            switch name {
            case "--no-color":
                noColor = true
                args.removeFirst()
            case "--help", "-h":
                return Invocation(command: .help(nil), noColor: noColor)
            case "--version":
                return Invocation(command: .version, noColor: noColor)
            case "--generate-manual":
                return Invocation(command: .manual, noColor: noColor)
            case "--generate-completion-script":
                args.removeFirst()
                guard let value = inline ?? (args.isEmpty ? nil : args.removeFirst()) else {
                    throw .usage(tr("--generate-completion-script needs a shell: bash, zsh or fish."), command: nil)
                }
                guard let shell = Shell(rawValue: value) else {
                    throw .usage(tr("'%s' is not a supported shell; use bash, zsh or fish.", value), command: nil)
                }
                return Invocation(command: .completionScript(shell), noColor: noColor)
            default:
                // Options of the default command may come without its name: `icarectl --json`.
                let spec = CommandTable.command(CommandTable.defaultCommand)!
                if spec.allOptions.contains(where: { "--" + $0.long == name || $0.short.map { "-\($0)" } == name }) {
                    return try parse(command: spec, args, noColor: noColor)
                }
                let known = (CommandTable.topLevelOptions + CommandTable.commonOptions + spec.options).map { "--" + $0.long }
                throw .usage(tr("Unknown option '%s'.", name) + Suggestion.phrase(name, among: known), command: nil)
            }
        }
        if args.first == "--" { args.removeFirst() }
        guard let word = args.first else {
            return Invocation(command: .status(StatusOptions()), noColor: noColor)
        }
        guard let spec = CommandTable.command(word.lowercased()) else {
            throw .usage(tr("'%s' is not a command.", word) + Suggestion.phrase(word, among: CommandTable.commands.map(\.name)),
                         command: nil)
        }
        return try parse(command: spec, Array(args.dropFirst()), noColor: noColor)
    }

    /// Matches the words after the command name to its declarations, then validates.
    static func parse(command spec: CommandSpec, _ words: [String], noColor noColorBefore: Bool) throws(CLIError) -> Invocation {
        var parsed = ParsedArguments()
        var noColor = noColorBefore
        var i = 0
        var onlyPositionals = false
        while i < words.count {
            let word = words[i]
            i += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                parsed.positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            let (name, inline) = split(word)
            guard let option = spec.allOptions.first(where: { "--" + $0.long == name || $0.short.map { "-\($0)" } == name }) else {
                throw .usage(tr("Unknown option '%s' for '%s'.", name, spec.name)
                    + Suggestion.phrase(name, among: spec.allOptions.map { "--" + $0.long }), command: spec.name)
            }
            switch option.long {
            case "help": return Invocation(command: .help(spec.name), noColor: noColor)
            case "no-color": noColor = true
            default:
                if option.valueName != nil {
                    if let inline {
                        parsed.values[option.long] = inline
                    } else if i < words.count {
                        parsed.values[option.long] = words[i]
                        i += 1
                    } else {
                        throw .usage(tr("--%s needs a value (%s).", option.long, option.valueName!), command: spec.name)
                    }
                } else {
                    guard inline == nil else { throw .usage(tr("--%s takes no value.", option.long), command: spec.name) }
                    parsed.flags.insert(option.long)
                }
            }
        }
        if parsed.positionals.count > spec.maxPositionals {
            let extra = parsed.positionals[spec.maxPositionals]
            throw .usage(spec.maxPositionals == 0 ? tr("'%s' takes no arguments, but got '%s'.", spec.name, extra)
                         : tr("Unexpected argument '%s'.", extra), command: spec.name)
        }
        return Invocation(command: try spec.validate(parsed), noColor: noColor)
    }

    /// `--days=7` → (`--days`, `7`).
    static func split(_ word: String) -> (String, String?) {
        guard word.hasPrefix("--"), let eq = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<eq]), String(word[word.index(after: eq)...]))
    }
}
