import Localization
import ReminderClient

/// `icarectl doctor`: the service's `Capabilities`, one line each, a mark
/// for its state (✓ works, ! limited, ✗ missing, – off) and its words;
/// under the sandbox, `SandboxLimits` in sentences. `--json` gives the same.
struct DoctorFormatter {
    let style: Style

    func text(_ s: ServiceStatus) -> String {
        guard !s.capabilities.isEmpty else { return tr("This iCare service does not say what it can see (it is older than icarectl).") + "\n" }
        let width = s.capabilities.map(\.title.count).max() ?? 0
        var out = ""
        for c in s.capabilities {
            let title = c.title + String(repeating: " ", count: width - c.title.count)
            out += mark(c.state) + " " + style.bold(title) + "  " + c.words + "\n"
            if c.name == "sandbox" { out += s.sandboxSentences.map { String(repeating: " ", count: width + 4) + "• " + $0 + "\n" }.joined() }
        }
        return out
    }

    func mark(_ state: String) -> String {
        switch state {
        case "works": return style.green("✓")
        case "off": return style.dim("–")
        case "limited": return style.yellow("!")
        default: return style.red("✗")
        }
    }

    /// `{"capabilities":[{"name":…,"state":…,"words":…}, …],"sandbox_limits":[…],"failing":N}`.
    func json(_ s: ServiceStatus) -> JSON {
        .object([
            ("capabilities", .array(s.capabilities.map { c in
                .object([("name", .string(c.name)), ("state", .string(c.state)), ("words", .string(c.words))])
            })),
            ("sandbox_limits", .array(s.sandboxLimits.map { .string($0) })),
            ("failing", .int(Int64(s.capabilities.filter(\.fails).count))),
        ])
    }
}
