import Localization

/// The `icarectl(1)` man page in roff, generated from `CommandTable`
/// (`icarectl --generate-manual > icarectl.1`).
public enum ManPage {
    public static func render() -> String {
        // TRANSLATORS: the man page's section titles, in capitals as man pages write them.
        var out = ".TH ICARECTL 1 \"\" \"icare \(CommandTable.version)\" \"" + tr("User Commands") + "\"\n"
        out += ".SH " + tr("NAME") + "\nicarectl \\- " + esc(CommandTable.summary) + "\n"
        out += ".SH " + tr("SYNOPSIS") + "\n.B icarectl\n[\\fICOMMAND\\fR] [\\fIOPTIONS\\fR]\n"
        out += ".SH " + tr("DESCRIPTION") + "\n" + esc(CommandTable.about) + "\n"
            + esc(tr("Without a command, %s prints the status.", "\u{1}icarectl\u{2}")).bold + "\n"
        out += ".SH " + tr("COMMANDS") + "\n"
        for spec in CommandTable.commands {
            out += ".TP\n.B " + esc(spec.usage.dropFirstWord) + "\n" + esc(spec.discussion) + "\n"
            for a in spec.arguments { out += ".RS\n.TP\n.I " + esc(a.name) + "\n" + esc(a.help) + "\n.RE\n" }
            for o in spec.options { out += ".RS\n.TP\n.B " + esc(o.synopsis) + "\n" + esc(o.help) + "\n.RE\n" }
        }
        out += ".SH " + tr("OPTIONS") + "\n"
        for o in CommandTable.topLevelOptions + CommandTable.commonOptions {
            out += ".TP\n.B " + esc(o.synopsis) + "\n" + esc(o.help) + "\n"
        }
        out += ".SH " + tr("JSON OUTPUT") + "\n"
            + esc(tr("Every reading command prints one JSON object per line. Keys keep their order; new keys may be added at the end. Times come as NAME (ISO 8601 local time with offset, null when none) and NAME_us (microseconds since the epoch, 0 when none).")) + "\n"
        for (title, lines) in JSONShapes.summary {
            out += ".TP\n.B " + esc(title) + "\n.nf\n" + lines.map(esc).joined(separator: "\n") + "\n.fi\n"
        }
        out += ".SH " + tr("STATUS BARS") + "\n"
            + esc(tr("waybar: a custom module with %s and %s. i3blocks or polybar: %s. One long-lived process; it listens for changes instead of polling.",
                     "\u{1}\"exec\": \"icarectl status --format waybar --follow\"\u{2}", "\u{1}\"return-type\": \"json\"\u{2}",
                     "\u{1}icarectl status --format plain --follow\u{2}")).bold + "\n"
        out += ".SH " + tr("EXIT STATUS") + "\n" + esc(tr("0 on success, 1 on failure (including when the service is not running), 64 on a usage error.")) + "\n"
        out += ".SH " + tr("ENVIRONMENT") + "\n.TP\n.B NO_COLOR\n" + esc(tr("When set and not empty, no colour.")) + "\n"
        out += ".TP\n.B DBUS_SESSION_BUS_ADDRESS\n" + esc(tr("Which desktop session's iCare to talk to (the session sets it).")) + "\n"
        out += ".SH " + tr("EXAMPLES") + "\n"
        for spec in CommandTable.commands { for e in spec.examples { out += ".nf\n" + esc(e) + "\n.fi\n" } }
        out += ".SH " + tr("SEE ALSO") + "\n.BR icared (8),\n.BR busctl (1),\n.BR systemctl (1)\n"
        // Chinese and Japanese lines have no spaces to stretch: set them ragged, not justified.
        if out.unicodeScalars.contains(where: isWide), let title = out.firstIndex(of: "\n") {
            out.insert(contentsOf: "\n.ad l", at: title)
        }
        return out
    }

    /// Escapes roff: backslashes, leading dots and quotes, hyphens; and lets a line break after each
    /// Chinese or Japanese character (`\:`), as those languages break lines, which have no spaces.
    static func esc(_ s: String) -> String {
        var out = s.replacingAll("\\", with: "\\e").replacingAll("-", with: "\\-")
        if out.unicodeScalars.contains(where: isWide) {
            // Never before a closing mark: a line does not start with "、", "。" or ")".
            let closing = Set("、。，．：；！？）」』】〉》)]},.:;!?".unicodeScalars)
            let scalars = Array(out.unicodeScalars)
            var broken = String.UnicodeScalarView()
            for (i, c) in scalars.enumerated() {
                broken.append(c)
                if isWide(c), i + 1 < scalars.count, !closing.contains(scalars[i + 1]) {
                    broken.append(contentsOf: "\\:".unicodeScalars)
                }
            }
            out = String(broken)
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// A character of the CJK scripts and their punctuation, two columns wide on a terminal.
    public static func isWide(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF01...0xFF60: return true
        default: return false
        }
    }
}

extension String {
    /// Text between U+0001 and U+0002 in bold (`\fB…\fR`): how a translated
    /// sentence marks the command names in it without roff in the catalog.
    var bold: String { replacingAll("\u{1}", with: "\\fB").replacingAll("\u{2}", with: "\\fR") }

    /// `icarectl status [--json]` → `status [--json]`.
    var dropFirstWord: String {
        guard let space = firstIndex(of: " ") else { return self }
        return String(self[index(after: space)...])
    }
}
