import FileKit
import FileSupport
import Glibc
import ReminderCore
import Testing
@testable import ICareFiles

/// Day files that someone else made large, strange or of the wrong kind:
/// the records in them stay readable, nothing blocks, memory stays bounded.
@Suite struct HistoryHostileFileTests {
    /// 2024-06-10T00:00:00Z.
    static let june10: Timestamp = 1_717_977_600 * Micro.second

    @Test func aDayFarOverAMegabyteKeepsEveryRecordReadable() throws {
        let temp = try TemporaryDirectory()
        let store = HistoryStore(directory: temp.path)
        // 40,000 records (about 1.5 MB, past the old 1 MiB cliff): the genuine first and last must both come back.
        var bytes: [UInt8] = []
        for i in 0..<40_000 {
            bytes += HistoryLine.encode(BreakRecord(at: Self.june10 + Int64(i), outcome: i == 0 ? .completed : .skipped, seconds: 20))
        }
        try AtomicFile.write(bytes, to: temp.join("2024-06-10"))
        #expect(bytes.count > 1 << 20)
        let (records, problems) = store.records(from: Self.june10, to: Self.june10 + 86_400 * Micro.second)
        #expect(problems.isEmpty)
        #expect(records.count == 40_000)
        #expect(records.first == BreakRecord(at: Self.june10, outcome: .completed, seconds: 20))
        #expect(records.last?.at == Self.june10 + 39_999)
        // A narrow range keeps only its records, not the whole file.
        #expect(store.records(from: Self.june10 + 100, to: Self.june10 + 102).records.map(\.at) == [Self.june10 + 100, Self.june10 + 101])
    }

    @Test func anEndlessLineCostsOnlyItselfAndProblemsAreCapped() throws {
        let temp = try TemporaryDirectory()
        let store = HistoryStore(directory: temp.path)
        let good = BreakRecord(at: Self.june10 + 5, outcome: .completed, seconds: 20)
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20) + [UInt8(ascii: "\n")]
        bytes += HistoryLine.encode(good)
        for _ in 0..<100 { bytes += Array("garbage\n".utf8) }
        try AtomicFile.write(bytes, to: temp.join("2024-06-10"))
        let (records, problems) = store.records(from: Self.june10, to: Self.june10 + 10)
        #expect(records == [good])
        #expect(problems.count == HistoryDayFile.problemsPerFile + 1)
        #expect(problems.first?.description == temp.join("2024-06-10") + ":1: The line is far longer than a record; skipped.")
        #expect(problems.last?.description == temp.join("2024-06-10") + ": 81 more damaged line(s) were skipped.")
    }

    @Test func aNamedPipeOrADirectoryIsReportedWithoutBlocking() throws {
        let temp = try TemporaryDirectory()
        let store = HistoryStore(directory: temp.path)
        #expect(mkfifo(temp.join("2024-06-10"), 0o600) == 0)
        #expect(mkdir(temp.join("2024-06-11"), 0o700) == 0)
        let (records, problems) = store.records(from: Self.june10, to: Self.june10 + 2 * 86_400 * Micro.second)
        #expect(records.isEmpty)
        #expect(problems.map(\.description) == [
            temp.join("2024-06-10") + ": The file could not be read: open(\(temp.join("2024-06-10"))): not a regular file but a named pipe.",
            temp.join("2024-06-11") + ": The file could not be read: open(\(temp.join("2024-06-11"))): not a regular file but a directory.",
        ])
        // Appending to a pipe in the day file's place fails the same way instead of blocking.
        #expect(throws: HistoryError.self) { try store.append(BreakRecord(at: Self.june10 + 1, outcome: .skipped, seconds: 0)) }
    }

    @Test func recordsSplitAcrossReadChunksAreWhole() {
        let lines = (0..<5).flatMap { HistoryLine.encode(BreakRecord(at: Self.june10 + Int64($0), outcome: .natural, seconds: 300)) }
        // Every split point of the bytes gives the same five records.
        for split in 0...lines.count {
            var parser = HistoryDayFile.Parser(path: "p", keep: { _ in true })
            parser.feed(lines[..<split])
            parser.feed(lines[split...])
            let file = parser.finish()
            #expect(file.records.count == 5 && file.problems.isEmpty, "split at \(split)")
        }
    }
}
