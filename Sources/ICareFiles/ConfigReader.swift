import ReminderCore

/// Applies config lines one by one to the settings, collecting problems.
struct ConfigReader {
    let path: String
    let previous: Settings
    /// Defaults, then each key present in the file: its previous value, then its good lines.
    private(set) var settings = Settings()
    private(set) var problems: [ConfigProblem] = []
    /// Where each key was first set, to report repeats.
    private var firstLine: [SettingKey: Int] = [:]

    init(path: String, previous: Settings) {
        self.path = path
        self.previous = previous
    }

    mutating func read(_ line: ConfigDocument.Line) {
        switch line.parsed.kind {
        case .blank, .comment:
            break
        case .group(let name):
            if !ConfigDocument.isICareGroup(name) {
                report(line, .warning, "The group [\(name)] is not iCare's; the lines below it are ignored up to an [iCare] line.")
            }
        case .garbage:
            report(line, .error, "This line is not `Key = value`, a comment (# or ;) or a blank line; it is ignored.")
        case .setting(let name):
            guard line.isICare else { return }
            guard let key = SettingKey(name: name) else {
                let known = SettingKey.allCases.map(\.name).joined(separator: ", ")
                report(line, .warning, "Unknown key '\(name)' is ignored; the keys are \(known).")
                return
            }
            apply(key, line)
        }
    }

    private mutating func apply(_ key: SettingKey, _ line: ConfigDocument.Line) {
        if let first = firstLine[key] {
            report(line, .warning, "\(key.name) is also set on line \(first); the last good line wins.")
        } else {
            firstLine[key] = line.number
            // Always valid: it comes from valid settings.
            try? settings.set(key, to: previous.value(of: key))
        }
        do {
            try settings.set(key, to: key.parse(text: line.parsed.value))
        } catch {
            let kept = settings.value(of: key).configText(for: key)
            let reason = error.reason.hasPrefix(key.name) ? error.reason : "\(key.name): \(error.reason)"
            let shown = kept.isEmpty ? "\"\"" : kept
            report(line, .error, "\(reason) It keeps the value \(shown).")
        }
    }

    private mutating func report(_ line: ConfigDocument.Line, _ severity: ConfigProblem.Severity, _ message: String) {
        problems.append(ConfigProblem(path: path, line: line.number, severity: severity, message: message))
    }
}
