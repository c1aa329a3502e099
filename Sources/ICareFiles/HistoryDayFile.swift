import FileKit
import Glibc
import ReminderCore

/// The contents of one history day file: the good records and the lines
/// that had to be skipped.
///
/// The file is read in chunks and parsed line by line, so memory stays
/// bounded however large a day grows (a flood of records, a file copied in
/// by mistake): only the records asked for are kept, a line far longer than
/// any record is skipped without being held, and at most
/// `problemsPerFile` problems are listed before one line sums up the rest.
struct HistoryDayFile {
    /// How much is read at a time.
    static let chunkSize = 64 << 10
    /// Longer lines cannot be records (a good one is under 60 bytes).
    static let longestLine = 128
    /// Problems listed one by one per file; the rest are counted.
    static let problemsPerFile = 20

    var records: [BreakRecord] = []
    var problems: [HistoryProblem] = []

    /// The file at `path` with the records that `keep` accepts, or nil when
    /// there is no such file. Anything but a regular file is an error.
    static func read(_ path: String, keep: @escaping (BreakRecord) -> Bool) throws(FileError) -> HistoryDayFile? {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_RDONLY)
        } catch where error.isNotFound {
            return nil
        }
        var parser = Parser(path: path, keep: keep)
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = try file.read(into: &chunk)
            if count == 0 { break }
            parser.feed(chunk[0..<count])
        }
        return parser.finish()
    }

    /// Every record and problem in `bytes`, by the rules of `read`.
    static func parse(_ bytes: [UInt8], path: String) -> HistoryDayFile {
        var parser = Parser(path: path, keep: { _ in true })
        parser.feed(bytes[...])
        return parser.finish()
    }

    /// Takes the bytes of a file in any pieces; a damaged line costs only itself.
    struct Parser {
        let path: String
        let keep: (BreakRecord) -> Bool
        private var line: [UInt8] = []
        private var overlong = false
        private var number = 0
        private var unlisted = 0
        private var file = HistoryDayFile()

        init(path: String, keep: @escaping (BreakRecord) -> Bool) {
            self.path = path
            self.keep = keep
        }

        mutating func feed(_ bytes: ArraySlice<UInt8>) {
            var start = bytes.startIndex
            while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                take(bytes[start..<newline])
                endLine()
                start = newline + 1
            }
            take(bytes[start...])
        }

        mutating func finish() -> HistoryDayFile {
            if !line.isEmpty || overlong {
                number += 1
                report("The last line is cut short (no newline: written during a crash or power cut); skipped.")
            }
            if unlisted > 0 {
                file.problems.append(HistoryProblem(
                    path: path, line: nil, message: "\(unlisted) more damaged line(s) were skipped."))
            }
            return file
        }

        private mutating func take(_ part: ArraySlice<UInt8>) {
            guard !overlong, !part.isEmpty else { return }
            if line.count + part.count > HistoryDayFile.longestLine {
                overlong = true
                line.removeAll(keepingCapacity: true)
            } else {
                line += part
            }
        }

        private mutating func endLine() {
            number += 1
            defer {
                line.removeAll(keepingCapacity: true)
                overlong = false
            }
            if overlong { return report("The line is far longer than a record; skipped.") }
            if line.isEmpty { return }
            switch HistoryLine.decode(line[...]) {
            case .success(let record):
                if keep(record) { file.records.append(record) }
            case .failure(.malformed):
                report("The line is not '<time µs> <outcome> <seconds> <checksum>'; skipped.")
            case .failure(.checksumMismatch):
                report("The line's checksum does not match (it is damaged); skipped.")
            }
        }

        private mutating func report(_ message: String) {
            guard file.problems.count < HistoryDayFile.problemsPerFile else {
                unlisted += 1
                return
            }
            file.problems.append(HistoryProblem(path: path, line: number, message: message))
        }
    }
}
