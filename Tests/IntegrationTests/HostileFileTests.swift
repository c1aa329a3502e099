import Foundation
import Testing
import TestSupport

/// Someone on the same account puts something hostile where iCare's files
/// live: a named pipe, a directory, a symbolic-link loop, a 10 MB file, a
/// folder it may not read. The real icared still starts and takes its name
/// (nothing blocks in `open`), says in its log which path is wrong and why,
/// and keeps every good record readable.
@Suite struct HostileFileTests {
    enum Hostile: String, CaseIterable {
        case namedPipe, directory, symlinkLoop, tenMegabytes

        /// Puts it at `path`.
        func make(at path: String) throws {
            let fm = FileManager.default
            try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            switch self {
            case .namedPipe: guard mkfifo(path, 0o600) == 0 else { throw HarnessError("mkfifo \(path)") }
            case .directory: try fm.createDirectory(atPath: path, withIntermediateDirectories: false)
            case .symlinkLoop:
                try fm.createSymbolicLink(atPath: path, withDestinationPath: path + ".other")
                try fm.createSymbolicLink(atPath: path + ".other", withDestinationPath: path)
            case .tenMegabytes:
                try Data(repeating: UInt8(ascii: "#"), count: 10 << 20).write(to: URL(fileURLWithPath: path))
            }
        }

        /// What the log says of it after `open(path): ` or `read(path): `.
        var reason: String {
            switch self {
            case .namedPipe: return "not a regular file but a named pipe"
            case .directory: return "not a regular file but a directory"
            case .symlinkLoop: return "Too many levels of symbolic links"
            case .tenMegabytes: return "File too large"
            }
        }
    }

    @Test(arguments: Hostile.allCases) func aHostileConfigFileMeansTheDefaultsAndIsNamed(_ hostile: Hostile) throws {
        let s = try ServiceHarness(start: false)
        defer { s.stop() }
        let path = s.configDirectory + "/config"
        try hostile.make(at: path)
        try s.start()
        #expect(s.log.contains("\(path): error: The file could not be read ("), "log:\n\(s.log)")
        #expect(s.log.contains(hostile.reason + "); the defaults apply."), "log:\n\(s.log)")
        #expect(try s.number("Interval") == 1200)
        // A setting cannot be saved over it, and the reply says so.
        let set = try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "Interval", "u", "900"])
        #expect(set.status != 0 && set.stderr.contains("Could not save Interval to \(path)"), "\(set)")
        #expect(s.process?.isRunning == true)
    }

    @Test(arguments: Hostile.allCases) func aHostileStateFileStartsAFreshIntervalAndIsNamed(_ hostile: Hostile) throws {
        let s = try ServiceHarness(start: false)
        defer { s.stop() }
        let path = s.stateDirectory + "/state"
        try hostile.make(at: path)
        try s.start()
        #expect(s.log.contains("\(path): "), "log:\n\(s.log)")
        #expect(s.log.contains(hostile.reason + "; starting a fresh interval."), "log:\n\(s.log)")
        #expect(try s.string("State") == "waiting")
    }

    @Test(arguments: [Hostile.namedPipe, .directory, .symlinkLoop]) func aHostileDayFileIsNamedAndASkipThatCannotBeSavedFails(_ hostile: Hostile) throws {
        let s = try ServiceHarness(start: false)
        defer { s.stop() }
        let path = s.stateDirectory + "/history/" + Self.utcDay(Date())
        try hostile.make(at: path)
        try s.start()
        #expect(s.log.contains("\(path): The file could not be read: "), "log:\n\(s.log)")
        let next = try s.number("NextBreak")
        let skip = try s.call("Skip")
        #expect(skip.status != 0, "\(skip)")
        #expect(skip.stderr.contains("The break could not be saved to the history, so nothing was changed: "), "\(skip)")
        // Opened for appending, a directory is refused by open(2) itself.
        #expect(skip.stderr.contains(hostile == .directory ? "Is a directory" : hostile.reason), "\(skip)")
        // Nothing changed: no skip counted, the same next break.
        #expect(try s.number("SkippedToday") == 0)
        #expect(try s.number("MissedToday") == 0)
        #expect(try s.number("NextBreak") == next)
        #expect(try s.call("GetHistory", "tt", "0", "9223372036854775807").stdout == "a(tsu) 0\n")
        // Failing again and again keeps no file open.
        let files = try HostileClient.settledOpenFiles(s)
        for _ in 0..<30 { #expect(try s.call("Skip").status != 0) }
        #expect(try HostileClient.settlesAt(files, s), "open files: \((try? HostileClient.openFiles(s)) ?? -1), before: \(files)")
    }

    @Test func aTenMegabyteDayKeepsItsGenuineRecordsCountedAndReadable() throws {
        let s = try ServiceHarness()
        defer { s.stop() }
        #expect(try s.call("Skip").status == 0)
        #expect(try s.call("Skip").status == 0)
        _ = try s.signal(SIGTERM)
        // The two genuine lines with 10 MB of damage between them.
        let path = s.stateDirectory + "/history/" + Self.utcDay(Date())
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let garbage = String(repeating: "not a record at all\n", count: (10 << 20) / 20)
        try (lines[0] + "\n" + garbage + lines[1] + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        // Half a million lines to read at start: a sanitizer build needs longer than the usual 10 s.
        try s.start(timeout: 120)
        #expect(try s.number("SkippedToday") == 2)
        #expect(try s.call("GetHistory", "tt", "0", "9223372036854775807").stdout.hasPrefix("a(tsu) 2 "))
        // The damage is reported, briefly: twenty lines and one that counts the rest.
        #expect(s.log.contains("\(path): \((10 << 20) / 20 - 20) more damaged line(s) were skipped."), "log:\n\(s.log.prefix(3000))")
    }

    @Test func anUnreadableConfigFolderIsNamedAndTheServiceRuns() throws {
        // Bare: under its unit, systemd sets ConfigurationDirectoryMode= at each start, which mends the folder.
        let s = try ServiceHarness(start: false)
        s.bare = true
        defer {
            chmod(s.configDirectory, 0o700)
            s.stop()
        }
        try FileManager.default.createDirectory(atPath: s.configDirectory, withIntermediateDirectories: true)
        try "Interval = 15m\n".write(toFile: s.configDirectory + "/config", atomically: true, encoding: .utf8)
        #expect(chmod(s.configDirectory, 0) == 0)
        if getuid() == 0 && s.bare { s.launcher = Self.heldToTheModes }
        try s.start()
        #expect(s.log.contains("\(s.configDirectory)/config: error: The file could not be read (open(\(s.configDirectory)/config): Permission denied); the defaults apply."), "log:\n\(s.log)")
        #expect(s.log.contains("Cannot watch \(s.configDirectory) for edits of the config file (sd_event_add_inotify(\(s.configDirectory)): Permission denied)"), "log:\n\(s.log)")
        #expect(try s.number("Interval") == 1200)
        #expect(try s.call("Skip").status == 0)
        #expect(s.process?.isRunning == true)
    }

    @Test func configTextReachesTheLogEscapedAndEachProblemOnce() throws {
        let s = try ServiceHarness(config: "Interval = \u{1B}[2J\u{1B}[31mred\nBreak\u{0}Duration = 20\nSo\u{9B}und = true\n")
        defer { s.stop() }
        let log = s.log
        #expect(!log.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }, "raw control characters in:\n\(log)")
        #expect(log.contains("\\x1B[2J\\x1B[31mred"), "log:\n\(log)")
        #expect(log.contains("Break\\x00Duration"), "log:\n\(log)")
        #expect(log.contains("So\\x9Bund"), "log:\n\(log)")
        let problems = log.split(separator: "\n").filter { $0.contains("/icare/config:") }
        #expect(problems.count == 3, "log:\n\(log)")
        // A change over D-Bus rewrites the file: the same problems are not logged again.
        #expect(try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "BreakDuration", "u", "15"]).status == 0)
        // The rewrite is read back through inotify at once; give it a second to (not) log.
        Thread.sleep(forTimeInterval: 1)
        #expect(s.log.split(separator: "\n").filter { $0.contains("/icare/config:") }.count == 3, "log:\n\(s.log)")
    }

    @Test func activeHoursStartingWhereTheyEndSayWhy() throws {
        let s = try ServiceHarness()
        defer { s.stop() }
        let r = try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "ActiveHours", "s", "09:00-09:00"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("ActiveHours cannot start and end at the same time; leave it empty to be reminded at any hour."), "\(r)")
    }

    @Test func anUnreadableStateFolderIsNamedAndNothingIsReportedDoneThatWasNot() throws {
        let s = try ServiceHarness(start: false)
        defer {
            chmod(s.stateDirectory, 0o700)
            s.stop()
        }
        try FileManager.default.createDirectory(atPath: s.stateDirectory + "/history", withIntermediateDirectories: true)
        #expect(chmod(s.stateDirectory, 0) == 0)
        if getuid() == 0 && s.bare { s.launcher = Self.heldToTheModes }
        try s.start()
        #expect(s.log.contains("\(s.stateDirectory)/state: open(\(s.stateDirectory)/state): Permission denied; starting a fresh interval."), "log:\n\(s.log)")
        #expect(s.log.contains("\(s.stateDirectory)/history/"), "log:\n\(s.log)")
        let skip = try s.call("Skip")
        #expect(skip.status != 0 && skip.stderr.contains("Permission denied"), "\(skip)")
        #expect(try s.number("SkippedToday") == 0)
        #expect(try s.number("MissedToday") == 0)
        #expect(s.process?.isRunning == true)
    }

    /// Runs a bare icared as root without the capabilities that let root read any
    /// folder, so root is held to the modes like anyone (under its unit it has none).
    static let heldToTheModes = ["/usr/bin/setpriv", "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]

    /// The UTC day of `date` as the history names its files.
    static func utcDay(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd"
        return f.string(from: date)
    }
}
