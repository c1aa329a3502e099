import Localization

/// `--help` texts, generated from `CommandTable`.
public enum HelpText {
    /// The overview: what iCare is, the commands, the top-level options.
    public static func overview() -> String {
        var out = "icarectl: " + CommandTable.summary + "\n\n"
        out += wrap(CommandTable.about, width: 78) + "\n\n"
        out += tr("Usage: %s", "icarectl [COMMAND] [OPTIONS]") + "\n\n"
        out += tr("Commands:") + "\n"
        out += table(CommandTable.commands.map { ($0.name, $0.summary) })
        out += "\n" + tr("Options:") + "\n"
        out += table((CommandTable.topLevelOptions + CommandTable.commonOptions).map { ($0.synopsis, $0.help) })
        out += "\n" + tr("See 'icarectl COMMAND --help' for a command's arguments and options.") + "\n"
        out += tr("Exit status: 0 success, 1 failure, 64 usage error.") + "\n"
        return out
    }

    /// One command's help.
    public static func command(_ spec: CommandSpec) -> String {
        var out = "icarectl \(spec.name): \(spec.summary)\n\n"
        out += tr("Usage: %s", spec.usage) + "\n\n"
        out += wrap(spec.discussion, width: 78) + "\n"
        if !spec.arguments.isEmpty {
            out += "\n" + tr("Arguments:") + "\n" + table(spec.arguments.map { ($0.name, $0.help) })
        }
        out += "\n" + tr("Options:") + "\n" + table(spec.allOptions.map { ($0.synopsis, $0.help) })
        if !spec.examples.isEmpty {
            out += "\n" + tr("Examples:") + "\n" + spec.examples.map { "  " + $0 + "\n" }.joined()
        }
        return out
    }

    /// The short usage shown under a usage error.
    public static func usageHint(for command: String?) -> String {
        if let command, let spec = CommandTable.command(command) {
            return tr("Usage: %s", spec.usage) + "\n" + tr("See 'icarectl %s --help'.", command) + "\n"
        }
        return tr("Usage: %s", "icarectl [COMMAND] [OPTIONS]") + "\n" + tr("See 'icarectl --help' for the commands.") + "\n"
    }

    /// Two columns, the second wrapped and aligned.
    static func table(_ rows: [(String, String)]) -> String {
        let width = min(28, (rows.map(\.0.count).max() ?? 0) + 2)
        var out = ""
        for (left, right) in rows {
            let lines = wrap(right, width: 78 - 2 - width).split(separator: "\n", omittingEmptySubsequences: false)
            if left.count + 2 > width {
                out += "  " + left + "\n"
                for l in lines { out += String(repeating: " ", count: width + 2) + l + "\n" }
            } else {
                for (i, l) in lines.enumerated() {
                    out += "  " + (i == 0 ? left.padding(to: width) : String(repeating: " ", count: width)) + l + "\n"
                }
            }
        }
        return out
    }

    /// Greedy word wrap.
    static func wrap(_ text: String, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}
