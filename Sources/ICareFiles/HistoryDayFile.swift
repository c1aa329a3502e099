import ReminderCore

/// The contents of one history day file: the good records and the lines
/// that had to be skipped.
struct HistoryDayFile {
    var records: [BreakRecord] = []
    var problems: [HistoryProblem] = []

    /// Reads every line of `bytes`; a damaged line costs only itself.
    static func parse(_ bytes: [UInt8], path: String) -> HistoryDayFile {
        var file = HistoryDayFile()
        var lineStart = 0
        var number = 0
        while lineStart < bytes.count {
            number += 1
            guard let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) else {
                file.problems.append(HistoryProblem(
                    path: path, line: number,
                    message: "The last line is cut short (no newline: written during a crash or power cut); skipped."))
                break
            }
            let line = bytes[lineStart..<newline]
            lineStart = newline + 1
            if line.isEmpty { continue }
            switch HistoryLine.decode(line) {
            case .success(let record):
                file.records.append(record)
            case .failure(.malformed):
                file.problems.append(HistoryProblem(
                    path: path, line: number,
                    message: "The line is not '<time µs> <outcome> <seconds> <checksum>'; skipped."))
            case .failure(.checksumMismatch):
                file.problems.append(HistoryProblem(
                    path: path, line: number, message: "The line's checksum does not match (it is damaged); skipped."))
            }
        }
        return file
    }
}
