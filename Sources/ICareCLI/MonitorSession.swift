import DBusKit
import SystemdKit
import ReminderCore
import Localization

/// `monitor`: one timestamped line per signal, per changed property, and
/// when the service starts or stops.
final class MonitorSession {
    let context: RunContext
    let json: Bool
    let loop: EventLoop
    let feed: LiveFeed
    private var status: Int32 = ExitStatus.ok

    init(context: RunContext, json: Bool) throws(CLIError) {
        self.context = context
        self.json = json
        loop = try EventLoop.forCLI()
        feed = try LiveFeed(loop: loop)
    }

    func run() throws(CLIError) -> Int32 {
        try loop.setUpForCLI { try loop.exitOnTerminationSignals() }
        let f = MonitorFormatter(time: context.time, style: context.style)
        feed.onEvent = { [unowned self] event in
            let lines = self.json ? f.json(event, at: self.context.now()).map { $0.text } : f.text(event, at: self.context.now())
            for line in lines where !self.context.out.write(line + "\n") { self.loop.exit(ExitStatus.ok) }
        }
        feed.onDisconnect = { [unowned self] in
            self.context.err.write(tr("The connection to your desktop session was lost.") + "\n")
            self.status = ExitStatus.failure
            self.loop.exit(ExitStatus.failure)
        }
        if context.err.isTerminal { context.err.write(tr("Watching %s; Ctrl-C to stop.", "org.icare.Reminder") + "\n") }
        feed.start()
        try loop.runForCLI()
        return status
    }
}

/// The lines `monitor` prints for an event.
public struct MonitorFormatter: Sendable {
    public let time: TimeText
    public let style: Style
    public init(time: TimeText, style: Style = .plain) {
        self.time = time
        self.style = style
    }

    static let timeProperties: Set<String> = ["NextBreak", "BreakEnds", "PausedUntil"]
    static let signalArgument = ["BreakDue": "at", "BreakStarted": "ends", "BreakCompleted": "at", "BreakSkipped": "at", "BreakMissed": "at",
                                 "BreakSnoozed": "until"]

    /// `2024-11-29 14:32:00.123  BreakStarted ends 14:32:20` and the like.
    public func text(_ event: LiveEvent, at now: Timestamp) -> [String] {
        let stamp = style.dim(time.logStamp(now)) + "  "
        switch event {
        case .snapshot: return []
        case .service(let running): return [stamp + (running ? "service started" : "service stopped")]
        case .signal(let name, let args):
            let words = args.map { arg -> String in
                if let t = arg.uint64 { return t == 0 ? "none" : longTime(Timestamp(clamping: t)) }
                return valueText(arg)
            }
            let label = MonitorFormatter.signalArgument[name].map { " " + $0 } ?? ""
            return [stamp + style.bold(name) + (words.isEmpty ? "" : label + " " + words.joined(separator: " "))]
        case .properties(let changes):
            return changes.map { name, value in
                if MonitorFormatter.timeProperties.contains(name), let t = value.uint64 {
                    return stamp + name + " = " + (t == 0 ? "none" : longTime(Timestamp(clamping: t)))
                }
                return stamp + name + " = " + valueText(value)
            }
        }
    }

    func longTime(_ t: Timestamp) -> String { time.calendar.local(t).date.description + " " + time.clockSeconds(t) }

    func valueText(_ v: DBusValue) -> String {
        switch v.unwrapped {
        case .string(let s): return s.isEmpty ? "\"\"" : s
        case .bool(let b): return b ? "true" : "false"
        case .uint32(let n): return String(n)
        case .uint64(let n): return String(n)
        case .int32(let n): return String(n)
        case .int64(let n): return String(n)
        default: return "(\(v.signature))"
        }
    }

    /// The `monitor --json` objects for an event.
    public func json(_ event: LiveEvent, at now: Timestamp) -> [JSON] {
        let when = JSON.time("when", now, time)
        switch event {
        case .snapshot: return []
        case .service(let running):
            return [.object(when + [("kind", .string("service")), ("name", .string(ReminderBus.name.rawValue)), ("running", .bool(running))])]
        case .signal(let name, let args):
            var m = when + [("kind", .string("signal")), ("name", .string(name))]
            if let t = args.first?.uint64 { m += JSON.time("time", Timestamp(clamping: t), time) }
            return [.object(m)]
        case .properties(let changes):
            return changes.map { name, value in
                var m = when + [("kind", .string("property")), ("name", .string(name)), ("value", jsonValue(value))]
                if MonitorFormatter.timeProperties.contains(name), let t = value.uint64 {
                    m.append(("value_iso", t == 0 ? .null : .string(time.iso(Timestamp(clamping: t)))))
                }
                return .object(m)
            }
        }
    }

    func jsonValue(_ v: DBusValue) -> JSON {
        switch v.unwrapped {
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        case .uint32(let n): return .int(Int64(n))
        case .uint64(let n): return .int(Int64(clamping: n))
        case .int32(let n): return .int(Int64(n))
        case .int64(let n): return .int(n)
        default: return .null
        }
    }
}
