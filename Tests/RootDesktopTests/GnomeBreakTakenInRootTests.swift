import Testing
import Foundation
import TestSupport

/// On the real GNOME Shell 48.7 and 50.5 (the package in the Debian roots), a GNOME eyesight break
/// really taken counts in iCare as a rest. GNOME's eyesight breaks turned on with the root's own
/// `gsettings` (interval 10 s, the schema's least; duration 20 s, its default); the person works, the
/// pointer moving (Mutter's RemoteDesktop, so GNOME's idle monitor sees input). The first break: Take
/// clicked on GNOME's "Time for an Eyesight Break", the hands rest until GNOME's break is over, the
/// pointer moves again. The second: worked through for 30 s, then the hands rest. GNOME's break manager
/// is watched on the bus as iCare watches it (`org.gnome.Shell.ScreenTime`). icared (the package's;
/// BreakDuration 30 s, so that its own idle watch, which would count the same rests, never fires)
/// records a `natural` break for each, of the seconds rested, ending when GNOME's ended, and its next
/// reminder comes a full Interval after the last.
@Suite struct GnomeBreakTakenInRootTests {
    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func aGnomeEyesightBreakTakenCountsAsARest(_ release: DesktopRoot.Release) throws {
        let began = Date()
        let rig = try GnomeClicksRig(release)
        defer { rig.stop() }
        let session = rig.session
        _ = try rig.root.folder("config/icare")
        try "Interval = 20m\nBreakDuration = 30s\n"
            .write(to: rig.root.work.appendingPathComponent("config/icare/config"), atomically: true, encoding: .utf8)
        try session.startIcared(["--log-stderr", "--debug"], log: "icared.log")
        guard try session.waitForName("org.icare.Reminder", timeout: 20) else { throw HarnessError(session.log("icared.log")) }
        let person = try Person(rig)
        #expect(try person.screenTime.now().state == 0, "GNOME's break manager before its breaks are on")
        let nextBefore = try Self.number(session.icareProperty("NextBreak"))

        // As GNOME Settings' Wellbeing panel turns them on; the interval as short as the schema allows.
        let schema = "org.gnome.desktop.break-reminders"
        for args in [[schema + ".eyesight", "interval-seconds", "10"], [schema + ".eyesight", "duration-seconds", "20"],
                     [schema, "selected-breaks", "['eyesight']"]] {
            let r = try session.run(["gsettings", "set"] + args)
            try #require(r.status == 0, "gsettings set \(args): \(r)")
        }
        let noticed = try waitUntil(timeout: 5, interval: 0.1) { try session.icareProperty("DesktopEyeBreaks") == "(<true>,)" }
        #expect(noticed, "icared did not see GNOME's eyesight breaks turned on")

        // The first break: work until GNOME's is due and shown; onto its banner (the buttons show on hover), Take.
        try person.workUntilABreakIsDue()
        var box: (x: Int, y: Int, w: Int, h: Int)?
        _ = try waitUntil(timeout: 3, interval: 0.1) {
            box = try rig.shell.bannerBox()
            return box != nil
        }
        let banner = try #require(box, "GNOME's banner did not finish showing")
        // The buttons grow in as the hovered banner expands: Take once its box holds still, at least 10 px high.
        let button = try rig.hoverButton("Take", onBanner: banner, minHeight: 10)
        try rig.click(x: button.x + button.w / 2, y: button.y + button.h / 2)
        let rests = Date()
        // Take fades the screen (GNOME's brightness effect) at once, as for a break taken.
        let faded = try waitUntil(timeout: 3, interval: 0.1) { try rig.shell.eval(Self.faded) == "true" }
        #expect(faded, "Take clicked at \(button): no fade")
        _ = try rig.screenshot()
        rig.keepShot("gnome-break-taken")
        let first = try person.restThroughGnomesBreak(since: rests)
        #expect(first.states == [4, 3, 2, 1], "the break taken: \(first.states)")
        try expectRecords(1, of: [first], session)

        // The second: worked through for 30 s after it is due (past iCare's minute in which a second rest is the
        // same one), then the hands rest; GNOME's break is over before its idle watch fires: no in-break.
        let from = person.screenTime.seen().count
        try person.workUntilABreakIsDue()
        try person.work(for: 30)
        let second = try person.restThroughGnomesBreak(since: Date(), from: from)
        #expect(second.states == [4, 2, 1], "the break worked through, then taken: \(second.states)")
        try expectRecords(2, of: [first, second], session)
        for (n, b) in [first, second].enumerated() {
            print("GNOME Shell \(release.gnomeShell), break \(n + 1): ScreenTime \(b.states.map(String.init).joined(separator: " → ")) "
                  + "(1 active, 2 idle, 3 in break, 4 due); rested \(String(format: "%.1f", b.away)) s; LastBreakEndTime \(b.ended)")
        }

        let nextAfter = try Self.number(session.icareProperty("NextBreak"))
        #expect(abs(Double(nextAfter) / 1e6 - Double(second.ended) - 1200) <= 2, "NextBreak \(nextAfter) after GNOME's break ended at \(second.ended)")
        #expect(nextAfter >= nextBefore + 60_000_000, "NextBreak \(nextBefore) before GNOME's breaks, \(nextAfter) after them")
        let log = session.log("icared.log")
        #expect(log.components(separatedBy: "GNOME's own break was taken").count == 3, "icared's log:\n\(log.suffix(3000))")
        let status = try session.run(["icarectl", "status"])
        #expect(status.status == 0 && status.stdout.contains("waiting") && status.stdout.contains("2 completed"), "icarectl status: \(status)")
        print("icarectl status on GNOME Shell \(release.gnomeShell):\n\(status.stdout)")
        print("GnomeBreakTakenInRootTests on GNOME Shell \(release.gnomeShell): \(Int(Date().timeIntervalSince(began))) s")
    }

    /// icared has `count` records, all natural, one for each GNOME break taken: ending with it, of the seconds rested.
    func expectRecords(_ count: Int, of breaks: [Person.Break], _ session: DesktopRootSession) throws {
        let counted = try waitUntil(timeout: 5, interval: 0.1) { try session.icareProperty("CompletedToday") == "(<uint32 \(count)>,)" }
        let completed = (try? session.icareProperty("CompletedToday")) ?? "?"
        #expect(counted, "CompletedToday \(completed)\n\(session.log("icared.log").suffix(3000))")
        let history = try session.call("org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder.GetHistory", ["0", "18446744073709551615"])
        let records = Self.records(history)
        print("icared's history: \(history)")
        #expect(records.count == count && records.allSatisfy { $0.outcome == "natural" }, "history: \(history)")
        for (r, b) in zip(records, breaks) {
            #expect(abs(Double(r.at) / 1e6 - Double(b.ended)) <= 2, "the record ends at \(r.at), GNOME's break at \(b.ended)")
            #expect(abs(Double(r.seconds) - b.away) <= 3, "recorded \(r.seconds) s rested; the hands rested \(b.away) s")
        }
    }

    /// GNOME's break fade: the brightness effect its BreakDispatcher puts on the UI group.
    static let faded = "Main.layoutManager.uiGroup.get_effect('brightness')?.enabled ?? false"

    /// The number in gdbus's `(<uint64 N>,)`.
    static func number(_ text: String) throws -> UInt64 {
        guard let n = text.split(whereSeparator: { !$0.isNumber }).compactMap({ UInt64($0) }).last else { throw HarnessError("no number in \(text)") }
        return n
    }

    /// GetHistory's `([(uint64 at, 'outcome', uint32 seconds), (at, 'outcome', seconds), …],)` (gdbus types the first only).
    static func records(_ text: String) -> [(at: UInt64, outcome: String, seconds: UInt32)] {
        let pattern = try! NSRegularExpression(pattern: #"\((?:uint64 )?(\d+), '(\w+)', (?:uint32 )?(\d+)\)"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { m in
            let part = { (i: Int) in Range(m.range(at: i), in: text).map { String(text[$0]) } ?? "" }
            guard let at = UInt64(part(1)), let s = UInt32(part(3)) else { return nil }
            return (at, part(2), s)
        }
    }
}

/// The person at the root's GNOME Shell: works (the pointer moves a little every half second), rests (no
/// input at all), and what GNOME's break manager said meanwhile.
struct Person {
    let rig: GnomeClicksRig
    let screenTime: ScreenTimeOnTheBus
    private let sign = Box(1)

    /// A GNOME break taken: the states announced (repeats squeezed), the seconds rested, GNOME's LastBreakEndTime.
    struct Break { let states: [UInt32]; let away: TimeInterval; let ended: UInt64 }

    init(_ rig: GnomeClicksRig) throws {
        self.rig = rig
        screenTime = try ScreenTimeOnTheBus(rig.session)
    }

    func nudge() throws {
        try rig.nudge(sign.value * 2, 0)
        sign.value = -sign.value
    }

    func work(for seconds: TimeInterval) throws {
        let until = Date().addingTimeInterval(seconds)
        while Date() < until {
            try nudge()
            Thread.sleep(forTimeInterval: 0.5)
        }
    }

    /// Works until GNOME's break manager says a break is due (again) and its banner shows.
    func workUntilABreakIsDue() throws {
        let from = screenTime.seen().count
        let due = try waitUntil(timeout: 30, interval: 0.5) {
            try nudge()
            return try screenTime.seen().dropFirst(from).contains { $0.state == 4 } && rig.shell.bannerTitle() == "Time for an Eyesight Break"
        }
        let shown = (try? rig.shell.bannerTitle()) ?? "?"
        try #require(due, "no eyesight break due: ScreenTime \(screenTime.seen()); banner '\(shown)'\n\(rig.shell.shellLog.suffix(2000))")
    }

    /// No input from `since` until GNOME's break is over (State idle, 22 s rested: its 20 s and a margin), then the
    /// pointer moves; GNOME marks the end (State active, a new LastBreakEndTime). States from the `from`th announcement.
    func restThroughGnomesBreak(since: Date, from: Int = 0) throws -> Break {
        let over = waitUntil(timeout: 40, interval: 0.2) { screenTime.seen().last?.state == 2 && Date().timeIntervalSince(since) >= 22 }
        try #require(over, "GNOME's break did not end while resting: ScreenTime \(screenTime.seen())")
        let away = Date().timeIntervalSince(since)
        try #require(away < 28, "rested \(away) s: icared's own idle watch (30 s) would count it too")
        let before = screenTime.seen().last?.end ?? 0
        try nudge()
        var ended: UInt64 = 0
        let marked = waitUntil(timeout: 5, interval: 0.1) {
            guard let last = screenTime.seen().last, last.state == 1, last.end > before else { return false }
            ended = last.end
            return true
        }
        try #require(marked, "GNOME did not mark the break's end: \(screenTime.seen())")
        let states = screenTime.seen().dropFirst(from).map(\.state).reduce(into: [UInt32]()) { if $0.last != $1 { $0.append($1) } }
        return Break(states: states, away: away, ended: ended)
    }
}

/// GNOME Shell's `org.gnome.Shell.ScreenTime` as a client on the bus sees it: `gdbus monitor` inside the
/// root (its PropertiesChanged, in order), and `GetAll` for the value now.
struct ScreenTimeOnTheBus {
    let session: DesktopRootSession
    static let log = "screentime.log"

    init(_ session: DesktopRootSession) throws {
        self.session = session
        try session.start(["gdbus", "monitor", "--session", "--dest", "org.gnome.Shell", "--object-path", "/org/gnome/Shell/ScreenTime"],
                          log: Self.log)
        guard waitUntil(timeout: 10, interval: 0.1, { session.log(Self.log).contains("Monitoring signals") }) else {
            throw HarnessError("gdbus monitor did not start: \(session.log(Self.log))")
        }
    }

    /// Every `State` and `LastBreakEndTime` announced so far (a signal with one of them keeps the other's last value).
    func seen() -> [(state: UInt32, end: UInt64)] {
        var state: UInt32?, end: UInt64?, all: [(state: UInt32, end: UInt64)] = []
        for line in session.log(Self.log).split(separator: "\n") where line.contains("PropertiesChanged") {
            let v = Self.values(String(line))
            state = v.state ?? state
            end = v.end ?? end
            if let state, let end { all.append((state, end)) }
        }
        return all
    }

    func now() throws -> (state: UInt32, end: UInt64) {
        let all = try session.call("org.gnome.Shell", "/org/gnome/Shell/ScreenTime", "org.freedesktop.DBus.Properties.GetAll",
                                   ["org.gnome.Shell.ScreenTime"])
        let v = Self.values(all)
        guard let state = v.state, let end = v.end else { throw HarnessError("ScreenTime GetAll: \(all)") }
        return (state, end)
    }

    static func values(_ line: String) -> (state: UInt32?, end: UInt64?) {
        func value(_ name: String, _ type: String) -> String? {
            guard let r = line.range(of: "'\(name)': <\(type) ") else { return nil }
            return String(line[r.upperBound...].prefix { $0.isNumber })
        }
        return (value("State", "uint32").flatMap(UInt32.init), value("LastBreakEndTime", "uint64").flatMap(UInt64.init))
    }
}
