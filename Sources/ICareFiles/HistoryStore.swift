import FileKit
import Glibc
import ReminderCore

/// The durable record of finished breaks, under `$XDG_STATE_HOME/icare/history/`.
///
/// **Layout.** One small file per UTC day, named `YYYY-MM-DD` after the UTC
/// date of each record's `at`, holding one line per break (see
/// `HistoryLine`: `<at µs> <outcome> <seconds> <crc32>`). Reading a range
/// opens only the files of the days it overlaps, found by computing their
/// names, so "today" costs one `open` whether there is a week or five years
/// of history; only a query spanning more than `maximumComputedDays` lists the
/// directory instead (cost bounded by the files kept, see retention).
///
/// **Durability.** `append` opens the day file with `O_APPEND`, writes the
/// whole line with one `write`, and `fsync`s before returning; a new day file
/// also gets its directory `fsync`ed. A line torn by a power cut is skipped
/// when read and reported, and the next append starts on a fresh line so the
/// damage stays in that one line.
///
/// **Retention: 365 days.** `trim(olderThan:)` removes whole day files that end
/// before a cutoff; the service calls `trimExpired(now:)` (cutoff
/// `now - retention`, or `retention` before the newest day file if the clock
/// runs ahead of the data) when the local day changes, never at start-up.
/// Recent records are never touched.
///
/// Directories are created `0700`, files `0600`.
public struct HistoryStore: Sendable {
    /// How long records are kept: 365 days, in microseconds.
    public static let retention: Int64 = 365 * 86_400 * Micro.second
    /// Queries spanning more days than this list the directory rather than
    /// probing every day's name.
    public static let maximumComputedDays: Int64 = 400
    /// The history directory.
    public let directory: String

    /// A store in `directory` (created on the first append).
    public init(directory: String) { self.directory = directory }

    /// The store of `paths` (`$XDG_STATE_HOME/icare/history`).
    public init(paths: XDGPaths) { self.init(directory: paths.historyDirectory) }

    /// The path of the file for `day`.
    func path(of day: UTCDay) -> String { directory + "/" + day.name }

    /// Adds `record` to its day's file and `fsync`s it: once this returns,
    /// the record survives a crash or a power cut.
    public func append(_ record: BreakRecord) throws(HistoryError) {
        guard let day = UTCDay(containing: record.at) else {
            throw .unstorable(record, reason: "A break record's time must lie between 1970 and 9999; \(record.at) does not.")
        }
        guard HistoryLine.canStore(record.outcome) else {
            throw .unstorable(record, reason: "A break outcome must be one word of printable ASCII; '\(record.outcome.rawValue)' is not.")
        }
        do {
            try append(HistoryLine.encode(record), to: path(of: day))
        } catch {
            throw .file(error)
        }
    }

    private func append(_ line: [UInt8], to path: String) throws(FileError) {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_RDWR | O_APPEND | O_CREAT, mode: 0o600)
        } catch where error.isNotFound {
            try Directory.ensure(directory)
            file = try FileDescriptor.open(path, O_RDWR | O_APPEND | O_CREAT, mode: 0o600)
        }
        let size = try file.size()
        // A torn last line has no newline: close it, so this record starts clean.
        var fresh = true
        if size > 0 { fresh = try file.byte(at: size - 1) == UInt8(ascii: "\n") }
        try file.writeAll(fresh ? line : [UInt8(ascii: "\n")] + line)
        try file.sync()
        if size == 0 { try Directory.sync(directory) }
    }

    /// The records with `from <= at < to`, oldest first, and the damaged lines
    /// that were skipped on the way. Unreadable files are reported, never fatal.
    public func records(from: Timestamp, to: Timestamp) -> (records: [BreakRecord], problems: [HistoryProblem]) {
        var records: [BreakRecord] = []
        var problems: [HistoryProblem] = []
        let days: [UTCDay]
        do {
            days = try self.days(from: from, to: to)
        } catch {
            return ([], [HistoryProblem(path: directory, line: nil, message: "The history could not be listed: \(error).")])
        }
        for day in days {
            let path = path(of: day)
            do {
                guard let file = try HistoryDayFile.read(path, keep: { from <= $0.at && $0.at < to }) else { continue }
                records += file.records
                problems += file.problems
            } catch {
                problems.append(HistoryProblem(path: path, line: nil, message: "The file could not be read: \(error)."))
            }
        }
        // Stable: records with equal times keep the order they were written in.
        return (Self.stableSortedByTime(records), problems)
    }

    /// The days whose files may hold records in `from..<to`.
    func days(from: Timestamp, to: Timestamp) throws(FileError) -> [UTCDay] {
        guard from < to, to > 0 else { return [] }
        let first = UTCDay(containing: max(from, 0)) ?? .last
        let last = UTCDay(containing: to - 1) ?? .last
        guard first <= last else { return [] }
        if last.number - first.number < Self.maximumComputedDays {
            return (first.number...last.number).map(UTCDay.init(number:))
        }
        return try Directory.names(in: directory).compactMap(UTCDay.init(name:)).filter { first <= $0 && $0 <= last }.sorted()
    }

    /// Removes the day files that end at or before `cutoff` and returns how
    /// many went. Files that are not day files are left alone.
    @discardableResult
    public func trim(olderThan cutoff: Timestamp) throws(FileError) -> Int {
        var removed = 0
        for name in try Directory.names(in: directory) {
            guard let day = UTCDay(name: name), day.end <= cutoff else { continue }
            let path = path(of: day)
            try systemCall("unlink", path) { unlink(path) }
            removed += 1
        }
        return removed
    }

    /// The daily retention trim: removes the day files that end `retention`
    /// or more before `now`, measured from the newest day file when that is
    /// earlier, so a wall clock set years ahead by mistake cannot empty the
    /// history. Returns how many files went.
    @discardableResult
    public func trimExpired(now: Timestamp) throws(FileError) -> Int {
        guard let newest = try Directory.names(in: directory).compactMap(UTCDay.init(name:)).max() else { return 0 }
        return try trim(olderThan: min(now, newest.end) - Self.retention)
    }

    private static func stableSortedByTime(_ records: [BreakRecord]) -> [BreakRecord] {
        records.enumerated()
            .sorted { $0.element.at != $1.element.at ? $0.element.at < $1.element.at : $0.offset < $1.offset }
            .map(\.element)
    }
}
