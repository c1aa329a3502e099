import Testing
import Foundation
import TestSupport

/// One icared per person (docs/architecture.md, "One icared per person"): two
/// logins of one person without a systemd user session, as two buses over one
/// home, each with the real icared under its unit's sandbox. The second finds
/// the lock taken and defers; it says which icared keeps the breaks, changes
/// nothing, and takes over when that one stops, also when it is killed.
@Suite(.serialized) struct OnePerPersonTests {
    /// An hour a second: a 20-minute interval passes in a third of a second, so an
    /// unanswered reminder becomes a missed record three times a second, and the
    /// 26 seconds of `everyOrderOverASimulatedDay` are a day and more.
    static let hourASecond = ["ICARE_TIME_SCALE": "3600"]

    @Test func theSecondDefersSaysWhichAndChangesNothing() throws {
        let a = try ServiceHarness(environment: ["XDG_SESSION_ID": "7"].merging(Self.hourASecond) { $1 }, logName: "a.log")
        defer { a.stop() }
        let b = try ServiceHarness(home: a.home, logName: "b.log")
        defer { b.stop() }
        let pid = try #require(try a.ownerProcess(of: "org.icare.Reminder"))
        let keeper = "icared (process \(pid)) on \(ProcessInfo.processInfo.hostName), login session 7"
        #expect(try a.string("KeptBy") == "")
        #expect(try b.string("KeptBy") == keeper)
        #expect(b.log.contains("Another icared keeps the schedule and the history (\(keeper)); this one changes nothing"), "log:\n\(b.log)")
        let sentence = "Another iCare keeps your breaks: \(keeper). This one takes over when that one stops."

        // Every call and every setting, refused by name, with one sentence.
        let monitor = try Self.signalMonitor(b)
        for (method, args) in [("StartBreak", [String]()), ("Skip", []), ("Snooze", ["300"]), ("Pause", ["600"]), ("Resume", []),
                              ("SetStartsAtLogin", ["true"])] {
            let r = try gdbus(b, "org.icare.Reminder.\(method)", args)
            #expect(r.status != 0 && r.stderr.contains("org.icare.Reminder.Error.KeptElsewhere: \(sentence)"), "\(method): \(r)")
        }
        let set = try gdbus(b, "org.freedesktop.DBus.Properties.Set", ["org.icare.Reminder", "Interval", "<uint32 1500>"])
        #expect(set.stderr.contains("org.icare.Reminder.Error.KeptElsewhere"), "\(set)")
        // The settings are the person's file, read as the keeper left them.
        #expect(try a.call("Skip").status == 0)
        #expect(try a.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "Interval", "u", "1800"]).status == 0)
        #expect(try b.number("Interval") == 1800)

        // icarectl in the second login: where the breaks are, and a refusal with the sentence.
        let status = try icarectl(b, ["status"])
        #expect(status.status == 0 && status.stdout == sentence + "\n", "\(status)")
        let json = try icarectl(b, ["status", "--json"])
        #expect(json.stdout.contains("\"kept_by\":\"\(keeper)\""), "\(json)")
        let skip = try icarectl(b, ["skip"])
        #expect(skip.status != 0 && skip.stderr.contains(sentence), "\(skip)")
        // The history is the keeper's, read from the second login too, and holds only what the keeper did.
        let history = try icarectl(b, ["history", "--json"])
        #expect(history.stdout.contains("\"outcome\":\"skipped\""), "\(history)")
        let records = try Self.records(a)
        #expect(records.filter { $0.outcome == "skipped" }.count == 1, "\(records)")
        #expect(waitUntil(timeout: 5) { (try? Self.records(a).contains { $0.outcome == "missed" }) == true }, "the keeper's schedule runs")
        #expect(Self.breakSignals(monitor).isEmpty, "the deferring icared announced breaks: \(Self.breakSignals(monitor))")

        // The keeper stops: the second takes over at once, on its own bus, and says so.
        #expect(try a.signal(SIGTERM) == 0)
        #expect(waitUntil(timeout: 5) { (try? b.string("KeptBy")) == "" }, "log:\n\(b.log)")
        #expect(b.log.contains("The icared that kept the schedule stopped; this one keeps it now."))
        #expect(try b.call("Skip").status == 0)
        #expect(try Self.records(a).filter { $0.outcome == "skipped" }.count == 2)
        let lock = try String(contentsOfFile: a.stateDirectory + "/icared.lock", encoding: .utf8)
        #expect(lock.hasPrefix("pid=\(try #require(try b.ownerProcess(of: "org.icare.Reminder")))\n"), "\(lock)")
    }

    /// Starts, SIGTERMs and SIGKILLs two icared for one person in every order over a simulated day
    /// (unanswered reminders, a missed record a third of a second): the history holds each record once,
    /// every record announced is in it, and a deferring icared keeps no schedule of its own.
    @Test func everyOrderOverASimulatedDay() throws {
        let a = try ServiceHarness(environment: Self.hourASecond, logName: "a.log")
        defer { a.stop() }
        let b = try ServiceHarness(environment: Self.hourASecond, start: false, home: a.home, logName: "b.log")
        defer { b.stop() }
        let monitorA = try Self.signalMonitor(a)
        try b.start()
        let monitorB = try Self.signalMonitor(b)
        #expect(Self.breakSignals(monitorB).isEmpty)
        var keeperTimes: [(ServiceHarness, Date, Date?)] = [(a, .distantPast, nil)]
        func handOver(to next: ServiceHarness) throws {
            let now = Date()
            keeperTimes[keeperTimes.count - 1].2 = now
            keeperTimes.append((next, now, nil))
            #expect(waitUntil(timeout: 5) { (try? next.string("KeptBy")) == "" }, "no takeover; log:\n\(next.log)")
        }
        // Which icared keeps the breaks, once the keeper has written it (it takes the lock first).
        func defers(_ s: ServiceHarness) {
            #expect(waitUntil(timeout: 5) { (try? s.string("KeptBy"))?.hasPrefix("icared (process ") == true }, "log:\n\(s.log)")
        }
        defers(b)
        Thread.sleep(forTimeInterval: 3)
        #expect(try a.signal(SIGTERM) == 0)             // the keeper stops
        try handOver(to: b)
        Thread.sleep(forTimeInterval: 3)
        try a.start()                                  // it comes back: it defers now
        defers(a)
        Thread.sleep(forTimeInterval: 3)
        b.kill9()                                      // the keeper is killed
        try handOver(to: a)
        Thread.sleep(forTimeInterval: 3)
        try b.start()
        defers(b)
        Thread.sleep(forTimeInterval: 2)
        #expect(try b.signal(SIGTERM) == 0)             // the one that defers stops: nothing changes
        #expect(try a.string("KeptBy") == "")
        try b.start()
        defers(b)
        b.kill9()                                      // or is killed
        Thread.sleep(forTimeInterval: 2)
        #expect(try a.string("KeptBy") == "")
        a.kill9()                                      // the keeper is killed with nobody waiting:
        keeperTimes[keeperTimes.count - 1].2 = Date()
        keeperTimes.append((b, Date(), nil))           // its tenure begins with its start, not when start returns
        try b.start()                                  // the next start finds nothing in its way
        #expect(try b.string("KeptBy") == "", "log:\n\(b.log)")
        Thread.sleep(forTimeInterval: 3)
        // Both at once: one keeps, the other defers to it.
        #expect(try b.signal(SIGTERM) == 0)
        keeperTimes[keeperTimes.count - 1].2 = Date()
        let bothStarted = Date()                       // the keeper's tenure begins here: on a loaded machine a start
        DispatchQueue.concurrentPerform(iterations: 2) { i in _ = try? (i == 0 ? a : b).start() }   // can take seconds
        let kept = try [a, b].filter { try $0.string("KeptBy") == "" }
        #expect(kept.count == 1, "keepers: \(kept.count); logs:\n\(a.log)\n\(b.log)")
        if let keeper = kept.first {
            keeperTimes.append((keeper, bothStarted, nil))
            defers(keeper === a ? b : a)
        }
        Thread.sleep(forTimeInterval: 3)
        keeperTimes[keeperTimes.count - 1].2 = Date()
        #expect(try a.signal(SIGTERM) == 0)
        #expect(try b.signal(SIGTERM) == 0)

        // Each record once; every record announced is in the history and every record was announced.
        let records = try Self.records(a)
        #expect(records.count > 60, "a simulated day of unanswered reminders: \(records.count) records")
        let times = records.map(\.at)
        #expect(Set(times).count == times.count, "a record written twice: \(times.sorted())")
        let announced = Self.breakSignals(monitorA) + Self.breakSignals(monitorB)
        #expect(Set(announced.map(\.at)) == Set(times), "announced but not kept: \(Set(announced.map(\.at)).subtracting(times)); kept but not announced: \(Set(times).subtracting(announced.map(\.at)))")
        // Only a keeper announces: no schedule of its own in an icared that defers (a second of slack for the monitor).
        for (harness, monitor) in [(a, monitorA), (b, monitorB)] {
            let mine = keeperTimes.filter { $0.0 === harness }
            for signal in Self.breakSignals(monitor) {
                let inTenure = mine.contains { signal.seen >= $0.1.addingTimeInterval(-1) && signal.seen <= ($0.2 ?? .distantFuture).addingTimeInterval(1) }
                #expect(inTenure, "\(signal.member) at \(signal.seen) from an icared that was deferring")
            }
        }
        // One schedule: consecutive missed records are a whole (scaled) interval apart.
        let missed = records.filter { $0.outcome == "missed" }.map(\.at).sorted()
        for (earlier, later) in zip(missed, missed.dropFirst()) {
            #expect(later - earlier >= 1_200_000_000 / 3600 - 1_000, "missed records \(later - earlier) µs apart: two schedules")
        }
    }

    // MARK: helpers

    struct Record: Equatable { let at: Int64; let outcome: String }

    /// Every line of every history day file (`<at µs> <outcome> <seconds> <crc32>`).
    static func records(_ s: ServiceHarness) throws -> [Record] {
        let folder = s.stateDirectory + "/history"
        return try FileManager.default.contentsOfDirectory(atPath: folder).sorted().flatMap { name in
            try String(contentsOfFile: folder + "/" + name, encoding: .utf8).split(separator: "\n").compactMap { line -> Record? in
                let f = line.split(separator: " ")
                guard f.count == 4, let at = Int64(f[0]) else { return nil }
                return Record(at: at, outcome: String(f[1]))
            }
        }
    }

    /// Every signal on the service's path of `s`'s bus, from now on (a signal of the test's own starts it).
    static func signalMonitor(_ s: ServiceHarness) throws -> BusMonitor {
        try BusMonitor(environment: s.environment, match: ["--match", "type='signal',path='/org/icare/Reminder'"]) {
            _ = try Subprocess.run(["dbus-send", "--session", "--type=signal", "/org/icare/Reminder", "org.icare.Test.Hello"],
                                   environment: s.environment)
        }
    }

    /// The record-making signals a bus carried: when each was seen, and its record's time.
    static func breakSignals(_ monitor: BusMonitor) -> [(member: String, at: Int64, seen: Date)] {
        ["BreakCompleted", "BreakSkipped", "BreakMissed"].flatMap { member in
            monitor.signals(member).compactMap { m -> (String, Int64, Date)? in
                guard let payload = m["payload"] as? [String: Any], let data = payload["data"] as? [Any],
                      let at = (data.first as? NSNumber)?.int64Value,
                      let seen = (m["timestamp-realtime"] as? NSNumber)?.doubleValue else { return nil }
                return (member, at, Date(timeIntervalSince1970: seen / 1_000_000))
            }
        }
    }

    func gdbus(_ s: ServiceHarness, _ method: String, _ args: [String]) throws -> ProcessResult {
        try Subprocess.run(["gdbus", "call", "--session", "--dest", "org.icare.Reminder", "--object-path", "/org/icare/Reminder",
                            "--method", method] + args, environment: s.environment)
    }

    func icarectl(_ s: ServiceHarness, _ args: [String]) throws -> ProcessResult {
        try Subprocess.run([try Products.path("icarectl")] + args, environment: s.environment)
    }
}
