import FileKit
import FileSupport
import Glibc
import ReminderCore
import Testing
@testable import ICareFiles

@Suite struct HistoryStoreTests {
    /// 2024-06-10T00:00:00Z.
    static let june10: Timestamp = 1_717_977_600 * Micro.second
    static let day: Timestamp = 86_400 * Micro.second
    static let minute: Timestamp = 60 * Micro.second

    func record(_ at: Timestamp, _ outcome: Outcome = .completed, _ seconds: UInt32 = 20) -> BreakRecord {
        BreakRecord(at: at, outcome: outcome, seconds: seconds)
    }

    @Test func appendedRecordsReadBackOldestFirstAcrossDays() throws {
        let temp = try TemporaryDirectory()
        let store = HistoryStore(directory: temp.join("state/icare/history"))
        let records = [
            record(Self.june10 + Self.day + 5 * Self.minute, .skipped, 0),
            record(Self.june10 + 20 * Self.minute),
            record(Self.june10 - 1, .natural, 300),
            record(Self.june10 + 40 * Self.minute, .completed, 20),
        ]
        for r in records { try store.append(r) }
        let (read, problems) = store.records(from: 0, to: Timestamp.max)
        #expect(problems.isEmpty)
        #expect(read == records.sorted { $0.at < $1.at })
        #expect(try Directory.names(in: store.directory).sorted() == ["2024-06-09", "2024-06-10", "2024-06-11"])
        #expect(permissions(store.directory + "/2024-06-10") == 0o600)
        #expect(permissions(store.directory) == 0o700)
        #expect(permissions(temp.join("state/icare")) == 0o700)
    }

    @Test func lineFormatIsReadableAndChecksummed() throws {
        let temp = try TemporaryDirectory()
        let store = HistoryStore(directory: temp.path)
        try store.append(record(Self.june10 + 1, .completed, 20))
        let line = try text(temp.join("2024-06-10"))
        let prefix = "1717977600000001 completed 20"
        let crc = String(CRC32.checksum(Array(prefix.utf8)), radix: 16)
        #expect(line == prefix + " " + String(repeating: "0", count: 8 - crc.count) + crc + "\n")
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test func rangeIsFromInclusiveToExclusive() throws {
        let temp = try TemporaryDirectory()
        let store = HistoryStore(directory: temp.path)
        let midnight = Self.june10
        for at in [midnight - 1, midnight, midnight + 1, midnight + Self.day - 1, midnight + Self.day] {
            try store.append(record(at))
        }
        let today = store.records(from: midnight, to: midnight + Self.day).records.map(\.at)
        #expect(today == [midnight, midnight + 1, midnight + Self.day - 1])
        #expect(store.records(from: midnight, to: midnight).records.isEmpty)
        #expect(store.records(from: midnight + 1, to: midnight).records.isEmpty)
        #expect(store.records(from: midnight - 1, to: midnight + 1).records.map(\.at) == [midnight - 1, midnight])
        #expect(store.records(from: Timestamp.min, to: Timestamp.max).records.count == 5)
    }

    @Test func tornLastLineAndGarbageInTheMiddleLoseOnlyThoseTwo() throws {
        let temp = try TemporaryDirectory()
        let store = HistoryStore(directory: temp.path)
        for i in 0..<6 { try store.append(record(Self.june10 + Int64(i) * Self.minute)) }
        let path = temp.join("2024-06-10")
        var lines = try text(path).split(separator: "\n").map(String.init)
        lines[2] = "\u{0}\u{0}garbage \u{FFFD} not a record"
        let torn = String(lines[5].prefix(20))
        lines[5] = torn
        try writeFixture(lines.joined(separator: "\n"), to: path)  // no final newline: torn

        let (read, problems) = store.records(from: Self.june10, to: Self.june10 + Self.day)
        #expect(read.map(\.at) == [0, 1, 3, 4].map { Self.june10 + Int64($0) * Self.minute })
        #expect(problems.map(\.line) == [3, 6])
        #expect(problems.allSatisfy { $0.path == path })
        #expect(problems[1].message.contains("cut short"))
    }

    @Test func appendAfterATornLineStartsAFreshLine() throws {
        let temp = try TemporaryDirectory()
        let store = HistoryStore(directory: temp.path)
        try store.append(record(Self.june10))
        try store.append(record(Self.june10 + Self.minute, .completed, 20))
        let path = temp.join("2024-06-10")
        let bytes = try contents(path)
        // Tear the second line, as a power cut in the middle of its write would.
        try writeFixture(Array(bytes.prefix(bytes.count - 5)), to: path)
        try store.append(record(Self.june10 + 2 * Self.minute, .skipped, 0))

        let (read, problems) = store.records(from: Self.june10, to: Self.june10 + Self.day)
        #expect(read == [record(Self.june10), record(Self.june10 + 2 * Self.minute, .skipped, 0)])
        #expect(problems.map(\.line) == [2])
    }

    @Test func checksumCatchesAChangedDigit() throws {
        let temp = try TemporaryDirectory()
        let store = HistoryStore(directory: temp.path)
        try store.append(record(Self.june10, .completed, 20))
        let path = temp.join("2024-06-10")
        try writeFixture(try text(path).replacingOccurrences(of: " 20 ", with: " 29 "), to: path)
        let (read, problems) = store.records(from: 0, to: Timestamp.max)
        #expect(read.isEmpty)
        #expect(problems.first?.message.contains("checksum") == true)
    }

    @Test func unknownOutcomesRoundTripAndUnstorableOnesAreRefused() throws {
        let temp = try TemporaryDirectory()
        let store = HistoryStore(directory: temp.path)
        let future = record(Self.june10, Outcome(rawValue: "interrupted-by-meeting"), 7)
        try store.append(future)
        #expect(store.records(from: 0, to: Timestamp.max).records == [future])
        for bad in ["", "two words", "line\nbreak", "naïve"] {
            #expect(throws: HistoryError.self) { try store.append(record(Self.june10, Outcome(rawValue: bad))) }
        }
        #expect(throws: HistoryError.self) { try store.append(record(-1)) }
        #expect(store.records(from: 0, to: Timestamp.max).records == [future])
    }

    @Test func aDayQueryReadsOnlyThatDaysFile() throws {
        let temp = try TemporaryDirectory()
        let store = HistoryStore(directory: temp.path)
        try store.append(record(Self.june10 + Self.minute))
        try writeFixture("damaged\n", to: temp.join("2024-06-09"))
        try writeFixture("damaged\n", to: temp.join("2024-06-11"))
        let (read, problems) = store.records(from: Self.june10, to: Self.june10 + Self.day)
        #expect(read.count == 1)
        #expect(problems.isEmpty)
        #expect(try store.days(from: Self.june10, to: Self.june10 + Self.day).map(\.name) == ["2024-06-10"])
        #expect(try store.days(from: Self.june10, to: Self.june10 + Self.day + 1).count == 2)
    }

    @Test func retentionRemovesOnlyWholeDaysBeforeTheCutoff() throws {
        let temp = try TemporaryDirectory()
        let store = HistoryStore(directory: temp.path)
        let now = Self.june10 + 12 * 60 * Self.minute
        let cutoff = now - HistoryStore.retention
        for daysAgo in [400, 366, 365, 364, 1, 0] { try store.append(record(now - Int64(daysAgo) * Self.day)) }
        try writeFixture("not mine", to: temp.join("notes.txt"))

        #expect(try store.trim(olderThan: cutoff) == 2)
        let kept = store.records(from: 0, to: Timestamp.max).records.map { (now - $0.at) / Self.day }
        #expect(kept == [365, 364, 1, 0], "the day containing the cutoff is kept whole")
        #expect(try Directory.names(in: temp.path).contains("notes.txt"))
        #expect(try HistoryStore(directory: temp.join("absent")).trim(olderThan: now) == 0)
    }

    @Test func longRangesListTheDirectoryInsteadOfProbingEveryDay() throws {
        let temp = try TemporaryDirectory()
        let store = HistoryStore(directory: temp.path)
        let fiveYears = 5 * 365 * Self.day
        try store.append(record(Self.june10 - fiveYears))
        try store.append(record(Self.june10))
        #expect(try store.days(from: 0, to: Timestamp.max).count == 2)
        #expect(store.records(from: Self.june10 - fiveYears, to: Self.june10 + 1).records.count == 2)
    }

    @Test func dayNamesFollowTheGregorianCalendar() {
        #expect(UTCDay(number: 0).name == "1970-01-01")
        #expect(UTCDay(containing: Self.june10)?.name == "2024-06-10")
        #expect(UTCDay(containing: Self.june10 - 1)?.name == "2024-06-09")
        #expect(UTCDay(name: "2024-02-29")?.name == "2024-02-29")
        #expect(UTCDay(name: "2000-02-29") != nil)
        for bad in ["2023-02-29", "1900-02-29", "2024-13-01", "2024-1-01", "1969-12-31", "notes.txt", ".2024-06-10.1.tmp"] {
            #expect(UTCDay(name: bad) == nil, "\(bad)")
        }
        #expect(UTCDay.last.name == "9999-12-31")
        for number in stride(from: Int64(0), through: UTCDay.last.number, by: 997) {
            #expect(UTCDay(name: UTCDay(number: number).name)?.number == number)
        }
    }
}
