/// The `icarectl(1)` man page in roff, generated from `CommandTable`
/// (`icarectl --generate-manual > icarectl.1`).
public enum ManPage {
    public static func render() -> String {
        var out = ".TH ICARECTL 1 \"\" \"icare \(CommandTable.version)\" \"User Commands\"\n"
        out += ".SH NAME\nicarectl \\- control iCare, the 20-20-20 eye-break reminder\n"
        out += ".SH SYNOPSIS\n.B icarectl\n[\\fICOMMAND\\fR] [\\fIOPTIONS\\fR]\n"
        out += ".SH DESCRIPTION\n" + esc(CommandTable.about) + "\nWithout a command, \\fBicarectl\\fR prints the status.\n"
        out += ".SH COMMANDS\n"
        for spec in CommandTable.commands {
            out += ".TP\n.B " + esc(spec.usage.dropFirstWord) + "\n" + esc(spec.discussion) + "\n"
            for a in spec.arguments { out += ".RS\n.TP\n.I " + esc(a.name) + "\n" + esc(a.help) + "\n.RE\n" }
            for o in spec.options { out += ".RS\n.TP\n.B " + esc(o.synopsis) + "\n" + esc(o.help) + "\n.RE\n" }
        }
        out += ".SH OPTIONS\n"
        for o in CommandTable.topLevelOptions + CommandTable.commonOptions {
            out += ".TP\n.B " + esc(o.synopsis) + "\n" + esc(o.help) + "\n"
        }
        out += ".SH JSON OUTPUT\nEvery reading command prints one JSON object per line. Keys keep their order; new keys may be added at the end. "
        out += "Times come as \\fIname\\fR (ISO 8601 local time with offset, null when none) and \\fIname\\fR_us (microseconds since the epoch, 0 when none).\n"
        for (title, shape) in JSONShapes.summary { out += ".TP\n.B " + esc(title) + "\n" + esc(shape) + "\n" }
        out += ".SH STATUS BARS\nwaybar: a custom module with \\fB\"exec\": \"icarectl status \\-\\-format waybar \\-\\-follow\"\\fR and \\fB\"return-type\": \"json\"\\fR. "
        out += "i3blocks or polybar: \\fBicarectl status \\-\\-format plain \\-\\-follow\\fR. One long-lived process; it listens for changes instead of polling.\n"
        out += ".SH EXIT STATUS\n0 on success, 1 on failure (including when the service is not running), 64 on a usage error.\n"
        out += ".SH ENVIRONMENT\n.TP\n.B NO_COLOR\nWhen set and not empty, no colour.\n.TP\n.B DBUS_SESSION_BUS_ADDRESS\nThe session bus to use.\n"
        out += ".SH EXAMPLES\n"
        for spec in CommandTable.commands { for e in spec.examples { out += ".nf\n" + esc(e) + "\n.fi\n" } }
        out += ".SH SEE ALSO\n.BR icared (8),\n.BR busctl (1),\n.BR systemctl (1)\n"
        return out
    }

    /// Escapes roff: backslashes, leading dots and quotes, hyphens.
    static func esc(_ s: String) -> String {
        var out = s.replacingAll("\\", with: "\\e").replacingAll("-", with: "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}

extension String {
    /// `icarectl status [--json]` → `status [--json]`.
    var dropFirstWord: String {
        guard let space = firstIndex(of: " ") else { return self }
        return String(self[index(after: space)...])
    }
}
