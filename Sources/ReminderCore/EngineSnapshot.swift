/// The part of a `ReminderEngine` that must survive a restart: the cycle and
/// the user pause, as of the last event. Presence (DND, lock, sleep, idle)
/// is not kept: the service observes it afresh.
///
/// Text form, version 1: `key=value` lines, the first `icare-engine=1`,
/// then `clock`, `phase` (`waiting`, `due`, `snoozed`, `break`, `off`) with
/// its instants, and `pause` (`none`, `open`, `timed` with `pausedUntil`).
/// Instants are microseconds since the Unix epoch. Blank lines and `#`
/// comments are ignored, unknown keys too (for additions within a version).
public struct EngineSnapshot: Equatable, Sendable {
    /// The format version written and read.
    public static let version = 1

    let clock: Timestamp
    let phase: EnginePhase
    let userPause: UserPause?

    init(clock: Timestamp, phase: EnginePhase, userPause: UserPause?) {
        self.clock = clock
        self.phase = phase
        self.userPause = userPause
    }

    /// The text form, ending with a newline.
    public func encoded() -> String {
        var lines = ["icare-engine=\(Self.version)", "clock=\(clock)"]
        switch phase {
        case .waiting(let start, let next): lines += ["phase=waiting", "start=\(start)", "next=\(next)"]
        case .due(let start, let since, let held):
            lines += ["phase=due", "start=\(start)", "since=\(since)", "held=\(held ? 1 : 0)"]
        case .snoozed(let start, let until): lines += ["phase=snoozed", "start=\(start)", "until=\(until)"]
        case .running(let start, let ends): lines += ["phase=break", "start=\(start)", "ends=\(ends)"]
        case .off: lines.append("phase=off")
        }
        switch userPause?.until {
        case nil where userPause == nil: lines.append("pause=none")
        case nil: lines.append("pause=open")
        case .some(let until): lines += ["pause=timed", "pausedUntil=\(until)"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads the text form; nil for anything else (another version, a
    /// missing or malformed value, instants out of order). Never traps.
    public init?(decoding text: String) {
        var fields: [String: String] = [:]
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = String(raw).trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "=") else { return nil }
            let key = String(line[..<eq]).trimmingSpaces
            guard fields[key] == nil else { return nil }
            fields[key] = String(line[line.index(after: eq)...]).trimmingSpaces
        }
        func instant(_ key: String) -> Timestamp? {
            guard let text = fields[key], let v = Int64(text), v >= 0 else { return nil }
            return v
        }
        guard fields["icare-engine"] == String(Self.version), let clock = instant("clock") else { return nil }
        guard let phase = Self.phase(fields["phase"], instant, held: fields["held"]) else { return nil }
        let pause: UserPause?
        switch fields["pause"] {
        case "none": pause = nil
        case "open": pause = UserPause(until: nil)
        case "timed":
            guard let until = instant("pausedUntil") else { return nil }
            pause = UserPause(until: until)
        default: return nil
        }
        self.init(clock: clock, phase: phase, userPause: pause)
    }

    private static func phase(_ name: String?, _ instant: (String) -> Timestamp?, held: String?) -> EnginePhase? {
        if name == "off" { return .off }
        guard let start = instant("start") else { return nil }
        switch name {
        case "waiting":
            guard let next = instant("next"), next >= start else { return nil }
            return .waiting(start: start, next: next)
        case "due":
            guard let since = instant("since"), since >= start, held == "0" || held == "1" else { return nil }
            return .due(start: start, since: since, held: held == "1")
        case "snoozed":
            guard let until = instant("until"), until >= start else { return nil }
            return .snoozed(start: start, until: until)
        case "break":
            guard let ends = instant("ends"), ends >= start else { return nil }
            return .running(start: start, ends: ends)
        default:
            return nil
        }
    }
}
