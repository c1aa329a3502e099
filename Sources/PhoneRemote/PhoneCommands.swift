/// The names of iCare's commands on the phone, in the person's language
/// (the service's texts give them).
public struct PhoneCommandNames: Equatable, Sendable {
    public var start: String
    public var snooze: String
    public var skip: String
    public var pause: String
    public var resume: String

    public init(start: String, snooze: String, skip: String, pause: String, resume: String) {
        self.start = start
        self.snooze = snooze
        self.skip = skip
        self.pause = pause
        self.resume = resume
    }
}

/// iCare's entries in a phone's Run command list: each runs the installed
/// `icarectl` by its full path on this desktop. Their keys are iCare's own
/// (`icare-…`): iCare adds, changes and removes only entries with these
/// keys. One entry pauses for an hour, or resumes a pause the person made;
/// its name and command follow the state.
enum PhoneCommands {
    static let keys: Set<String> = ["icare-start", "icare-snooze", "icare-skip", "icare-pause"]

    /// The entries, as (key, name, command line).
    static func entries(icarectl: String, names: PhoneCommandNames, userPaused: Bool) -> [(key: String, name: String, command: String)] {
        let program = shellQuoted(icarectl)
        return [
            ("icare-start", names.start, program + " start"),
            ("icare-snooze", names.snooze, program + " snooze"),
            ("icare-skip", names.skip, program + " skip"),
            ("icare-pause", userPaused ? names.resume : names.pause, program + (userPaused ? " resume" : " pause 1h")),
        ]
    }

    /// The entries as members of KDE Connect's JSON list.
    static func members(icarectl: String, names: PhoneCommandNames, userPaused: Bool) -> [JSONObjectText.Member] {
        entries(icarectl: icarectl, names: names, userPaused: userPaused).map {
            JSONObjectText.member($0.key, strings: [("name", $0.name), ("command", $0.command)])
        }
    }

    /// `'path'`, for `/bin/sh -c` (KDE Connect and GSConnect run commands with it).
    static func shellQuoted(_ s: String) -> String {
        var out = "'"
        for c in s { out += c == "'" ? "'\\''" : String(c) }
        return out + "'"
    }
}
