import Testing
import Foundation
import TestSupport
import ReminderCore
@testable import ICareCLI

/// `history --csv`: the text itself, then the built icarectl against the real
/// icared, read back by Python's csv module (as a spreadsheet would open it)
/// and compared with `--json`.
@Suite struct HistoryCSVFormattingTests {
    let f = HistoryFormatter(time: text)

    @Test func aDayIsARowPerBreakWithAHeader() {
        let records = [
            BreakRecord(at: at(9, 12, 5), outcome: .completed, seconds: 20),
            BreakRecord(at: at(9, 32, 40), outcome: .skipped, seconds: 0),
            BreakRecord(at: at(10, 1), outcome: .natural, seconds: 312),
        ]
        #expect(f.dayCSV(records) == "date,time,outcome,seconds\r\n2024-11-29,09:12:05,completed,20\r\n"
            + "2024-11-29,09:32:40,skipped,0\r\n2024-11-29,10:01:00,natural,312\r\n")
        #expect(f.dayCSV([]) == "date,time,outcome,seconds\r\n", "an empty day is the header alone")
    }

    @Test func daysAreARowPerDayWithTheJSONCounts() {
        let records = [
            BreakRecord(at: at(9, 12), outcome: .completed, seconds: 20),
            BreakRecord(at: at(10, 1), outcome: .natural, seconds: 312),
            BreakRecord(at: at(11, 0), outcome: .skipped, seconds: 0),
            BreakRecord(at: at(11, 20), outcome: .missed, seconds: 0),
            BreakRecord(at: at(11, 40), outcome: .missed, seconds: 0),
            BreakRecord(at: at(12, 0), outcome: Outcome(rawValue: "future"), seconds: 0),
        ]
        let tallies = f.tally(records, days: [day.adding(days: -1), day])
        #expect(f.daysCSV(tallies) == "date,completed,natural,skipped,missed,other\r\n2024-11-28,0,0,0,0,0\r\n2024-11-29,2,1,1,2,1\r\n")
    }

    /// Whoever owns the service's name can send any outcome: it is quoted where
    /// it must be, and one that a spreadsheet would run as a formula opens as text.
    @Test func hostileOutcomesAreQuotedAndNeverFormulas() {
        #expect(CSV.field("plain") == "plain")
        #expect(CSV.field("a,b") == "\"a,b\"")
        #expect(CSV.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSV.field("two\nlines") == "\"two\nlines\"")
        #expect(CSV.field("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
        #expect(CSV.field("+1") == "'+1")
        #expect(CSV.field("@SUM(A1)") == "'@SUM(A1)")
        #expect(CSV.field("-2") == "'-2")
        #expect(CSV.field("") == "")
    }
}

@Suite(.serialized) struct HistoryCSVEndToEndTests {
    /// Rows as Python's csv module reads them (RFC 4180, as a spreadsheet would).
    func table(_ csv: String) throws -> [[String]] {
        let r = try Subprocess.run(["python3", "-c", "import csv, io, json, sys; "
                                    + "print(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read(), newline='')))))"],
                                   stdin: csv)
        guard r.status == 0, let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String]] else {
            throw HarnessError("python3 did not read the CSV: \(r)")
        }
        return rows
    }

    @Test func csvOpensAsTheSameTableAsJSON() throws {
        let h = try ServiceHarness(config: "BreakDuration = 10s\n")
        defer { h.stop() }
        #expect(try icarectl(h, ["skip"]).status == 0)
        #expect(try icarectl(h, ["skip"]).status == 0)
        #expect(try icarectl(h, ["start"]).status == 0)
        let deadline = Date().addingTimeInterval(20)
        while try h.string("State") == "break", Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }

        let day = try icarectl(h, ["history", "--csv"])
        #expect(day.status == 0, "\(day)")
        #expect(day.stdout.hasSuffix("\r\n") && !day.stdout.contains("\r\n\r\n"), "RFC 4180 records: \(day.stdout.debugDescription)")
        let rows = try table(day.stdout)
        #expect(rows.first == ["date", "time", "outcome", "seconds"])
        let json = try jsonObject(try icarectl(h, ["history", "--json"]).stdout)
        let breaks = try #require(json["breaks"] as? [[String: Any]])
        #expect(rows.count == breaks.count + 1 && breaks.count == 3, "\(rows) \(breaks)")
        for (row, b) in zip(rows.dropFirst(), breaks) {
            let at = try #require(b["at"] as? String)  // 2024-11-29T09:12:05+00:00 (TZ=UTC)
            #expect(row == [String(at.prefix(10)), String(at.dropFirst(11).prefix(8)), b["outcome"] as? String ?? "?",
                            String(b["seconds"] as? Int ?? -1)], "\(row) \(b)")
        }
        #expect(rows.dropFirst().map { $0[2] } == ["skipped", "skipped", "completed"])

        let week = try table(try icarectl(h, ["history", "--days", "7", "--csv"]).stdout)
        let weekJSON = try jsonObject(try icarectl(h, ["history", "--days", "7", "--json"]).stdout)
        let days = try #require(weekJSON["days"] as? [[String: Any]])
        #expect(week.first == ["date", "completed", "natural", "skipped", "missed", "other"])
        #expect(week.count == 8)
        let expected: [[String]] = days.map { d in
            let counts = ["completed", "natural", "skipped", "missed", "other"].map { String(d[$0] as? Int ?? -1) }
            return [d["date"] as? String ?? "?"] + counts
        }
        #expect(Array(week.dropFirst()) == expected)
        #expect(week.last?[1] == "1" && week.last?[3] == "2", "today: 1 completed, 2 skipped: \(week)")
    }

    @Test func csvAndJSONTogetherIsAUsageError() throws {
        let h = try ServiceHarness(start: false)
        defer { h.stop() }
        let r = try icarectl(h, ["history", "--csv", "--json"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("Error: Give either --json or --csv, not both.\n"), "\(r)")
    }
}
