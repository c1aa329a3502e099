import Testing
import Foundation
import TestSupport

/// Issue 5 end to end: the config file, the history store and restart
/// continuity, proved against the real icared on a private bus with its own
/// XDG folders. Restarts are real (SIGTERM, or SIGKILL for a crash).
@Suite(.serialized) struct PersistenceTests {
    static let day: UInt64 = 86_400_000_000

    // MARK: the config file

    @Test func aSettingSetOverDBusSurvivesARestartWrittenForPeople() throws {
        let s = try ServiceHarness()
        let file = s.configDirectory + "/config"
        let sets: [(String, String, String, String)] = [
            ("Interval", "u", "1500", "u 1500"), ("BreakDuration", "u", "15", "u 15"),
            ("SnoozeDuration", "u", "90", "u 90"), ("Sound", "b", "false", "b false"),
            ("DndPolicy", "s", "defer", "s \"defer\""), ("ActiveHours", "s", "08:00-18:30", "s \"08:00-18:30\""),
            ("WeekdaysOnly", "b", "true", "b true"),
        ]
        for (name, sig, value, _) in sets {
            let r = try setProperty(s, name, sig, value)
            #expect(r.status == 0, "\(name): \(r)")
        }
        // Written before the reply: read at once, no waiting.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for expected in ["Interval = 25m", "BreakDuration = 15s", "SnoozeDuration = 1m30s", "Sound = false",
                         "DndPolicy = defer", "ActiveHours = 08:00-18:30", "WeekdaysOnly = true"] {
            #expect(lines.contains(expected), "the config lacks '\(expected)':\n\(text)")
        }
        #expect(text.hasPrefix("#"), "a new config file explains itself in comments:\n\(text)")
        #expect(try mode(file) == 0o600)
        #expect(try mode(s.configDirectory) == 0o700)

        #expect(try s.signal(SIGTERM) == 0)
        try s.start()
        for (name, _, _, shown) in sets { #expect(try s.property(name) == shown, "\(name) after a restart") }
        // A crash too.
        s.kill9()
        try s.start()
        #expect(try s.number("Interval") == 1500)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == text, "starting never rewrites the config")
    }

    @Test func aSymlinkedConfigStaysALink() throws {
        // Bare: under the unit a link out of ~/.config/icare is read-only (AsInstalledTests says what then).
        let s = try ServiceHarness(start: false)
        s.bare = true
        let dotfiles = s.home.appendingPathComponent("dotfiles").path
        try FileManager.default.createDirectory(atPath: dotfiles, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: s.configDirectory, withIntermediateDirectories: true)
        try Data("# in my dotfiles repository\nInterval = 25m\n".utf8).write(to: URL(fileURLWithPath: dotfiles + "/icare.conf"))
        #expect(symlink(dotfiles + "/icare.conf", s.configDirectory + "/config") == 0)
        try s.start()
        #expect(try s.number("Interval") == 1500)
        #expect(try setProperty(s, "Interval", "u", "1800").status == 0)
        var info = stat()
        #expect(lstat(s.configDirectory + "/config", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link was replaced by a file")
        #expect(try String(contentsOfFile: dotfiles + "/icare.conf", encoding: .utf8) == "# in my dotfiles repository\nInterval = 30m\n")
        #expect(try s.signal(SIGTERM) == 0)
        try s.start()
        #expect(try s.number("Interval") == 1800)
    }

    @Test func aHandEditIsAnnouncedWithinASecond() throws {
        let s = try ServiceHarness()
        let file = s.configDirectory + "/config"
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }

        // An editor's save: a temporary file renamed over the config.
        try writeByRenaming("# mine\nInterval = 30m\n", to: file)
        #expect(waitUntil(timeout: 1) { changes(monitor, "Interval").contains(1800) },
                "no PropertiesChanged for Interval within a second: \(monitor.changedProperties)\nlog:\n\(s.log)")
        #expect(try s.number("Interval") == 1800)
        #expect(waitUntil(timeout: 1) { monitor.changedProperties.contains("NextBreak") }, "the schedule follows the new interval")

        // An in-place write (truncate and write, like `echo >` or nano).
        try writeInPlace("# mine\nInterval = 35m\nSound = false\n", to: file)
        #expect(waitUntil(timeout: 1) { changes(monitor, "Interval").contains(2100) && changes(monitor, "Sound").contains(false) },
                "no PropertiesChanged within a second: \(monitor.changedProperties)\nlog:\n\(s.log)")
        #expect(try s.number("Interval") == 2100)
        #expect(try s.property("Sound") == "b false")

        // vim's and emacs's save: the old file is moved away, then the new one written.
        #expect(rename(file, file + "~") == 0)
        #expect(!waitUntil(timeout: 0.3) { changes(monitor, "Interval").contains(1200) },
                "the moment without a file flipped the settings to their defaults")
        try writeInPlace("# mine\nInterval = 40m\nSound = false\n", to: file)
        #expect(waitUntil(timeout: 1) { changes(monitor, "Interval").contains(2400) }, "log:\n\(s.log)")
        #expect(!changes(monitor, "Interval").contains(1200) && !changes(monitor, "Sound").contains(true),
                "the moment without a file must not flip the settings to their defaults: \(monitor.changedProperties)")
        unlink(file + "~")

        // Removing a key by hand restores its default.
        try writeByRenaming("# mine\nSound = false\n", to: file)
        #expect(waitUntil(timeout: 1) { changes(monitor, "Interval").contains(1200) }, "log:\n\(s.log)")
        #expect(try s.number("Interval") == 1200)
        #expect(try s.property("Sound") == "b false")

        // Removing the file restores every default (after the editor grace period).
        #expect(unlink(file) == 0)
        #expect(waitUntil(timeout: 2) { changes(monitor, "Sound").contains(true) }, "log:\n\(s.log)")
        #expect(try s.property("Sound") == "b true")
        #expect(!FileManager.default.fileExists(atPath: file), "a removed config is not written back")
    }

    /// Comments, spacing, an unknown key, a foreign group and one bad value.
    static let handWritten = """
        # My iCare settings: I like longer intervals.
        ; (semicolon comments too)

        Interval = 25m   # a bit longer than the default
        Colour = blue
        BreakDuration = 99
          sound=false
        [Other]
        Interval = 5m
        [iCare]
        DndPolicy = ignore

        """

    @Test func aBadValueCostsOnlyItsKeyAndTheFileIsKeptByteForByte() throws {
        let s = try ServiceHarness(start: false)
        let file = s.configDirectory + "/config"
        try FileManager.default.createDirectory(atPath: s.configDirectory, withIntermediateDirectories: true)
        let original = Data(Self.handWritten.utf8)
        try original.write(to: URL(fileURLWithPath: file))
        try s.start()

        // Everything else loads; the bad key keeps its default at start.
        #expect(try s.number("Interval") == 1500)
        #expect(try s.property("Sound") == "b false")
        #expect(try s.string("DndPolicy") == "ignore")
        #expect(try s.number("BreakDuration") == 20)
        #expect(try s.number("SnoozeDuration") == 300)
        #expect(s.log.contains("\(file):6:"), "the log names the file and line of the bad value:\n\(s.log)")
        #expect(s.log.contains("\(file):5:"), "the unknown key is reported too:\n\(s.log)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original, "starting changed the person's file")

        // A hand edit fixes the value: it loads.
        let fixed = Self.handWritten.replacingOccurrences(of: "BreakDuration = 99", with: "BreakDuration = 15s")
        try writeByRenaming(fixed, to: file)
        #expect(try waitUntil(timeout: 2) { try s.number("BreakDuration") == 15 }, "log:\n\(s.log)")

        // A hand edit breaks it again and changes another key: the bad key keeps its previous value.
        let reportsBefore = s.log.components(separatedBy: "\(file):6:").count
        let broken = fixed.replacingOccurrences(of: "BreakDuration = 15s", with: "BreakDuration = lots")
            .replacingOccurrences(of: "Interval = 25m", with: "Interval = 30m")
        try writeByRenaming(broken, to: file)
        #expect(try waitUntil(timeout: 2) { try s.number("Interval") == 1800 }, "log:\n\(s.log)")
        #expect(try s.number("BreakDuration") == 15, "a bad value keeps the key's previous value")
        #expect(waitUntil(timeout: 2) { s.log.components(separatedBy: "\(file):6:").count > reportsBefore },
                "the bad line of the edit is reported by file and line:\n\(s.log)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(broken.utf8), "loading the edit changed the file")

        // A set-property afterwards changes only that key's line.
        #expect(try setProperty(s, "Sound", "b", "true").status == 0)
        let afterSound = try String(contentsOfFile: file, encoding: .utf8)
        #expect(afterSound == broken.replacingOccurrences(of: "  sound=false", with: "  sound=true"), "got:\n\(afterSound)")
        #expect(try setProperty(s, "Interval", "u", "2700").status == 0)
        let afterInterval = try String(contentsOfFile: file, encoding: .utf8)
        #expect(afterInterval == afterSound.replacingOccurrences(of: "Interval = 30m   #", with: "Interval = 45m   #"),
                "the [Other] group's line and the comment stay; got:\n\(afterInterval)")
        // A key the file lacks is added at the end, in the [iCare] group.
        #expect(try setProperty(s, "SnoozeDuration", "u", "600").status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == afterInterval + "SnoozeDuration = 10m\n")
        // And the daemon's own writes do not bounce back as a reload with different values.
        #expect(try s.number("BreakDuration") == 15)
        #expect(try s.number("SnoozeDuration") == 600)
        #expect(try mode(file) == 0o600)

        // Setting the value the bad key kept writes it, so it survives a restart.
        let beforeSet = try String(contentsOfFile: file, encoding: .utf8)
        #expect(try setProperty(s, "BreakDuration", "u", "15").status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8)
                == beforeSet.replacingOccurrences(of: "BreakDuration = lots", with: "BreakDuration = 15s"))
        #expect(try s.signal(SIGTERM) == 0)
        try s.start()
        #expect(try s.number("BreakDuration") == 15)
        #expect(try s.number("Interval") == 2700)
    }

    // MARK: the history store

    @Test func aDamagedHistoryLosesOnlyTheDamagedLines() throws {
        let s = try ServiceHarness(start: false)
        let history = s.stateDirectory + "/history"
        try FileManager.default.createDirectory(atPath: history, withIntermediateDirectories: true)
        let now = nowMicros()
        let dayStart = now - now % Self.day
        // Six good records in this UTC day, all in the past minute (or since UTC midnight).
        let first = max(dayStart, now - 60_000_000)
        let good: [(UInt64, String, UInt32)] = [
            (first + 1_000, "completed", 20), (first + 2_000, "skipped", 0), (first + 3_000, "natural", 600),
            (first + 4_000, "completed", 20), (first + 5_000, "completed", 15), (first + 6_000, "some-future-outcome", 7),
        ]
        var bytes = Data()
        for (i, r) in good.enumerated() {
            bytes += historyLine(r.0, r.1, r.2)
            if i == 2 { bytes += Data("this line is garbage\n".utf8) }   // line 4
        }
        let torn = historyLine(first + 7_000, "completed", 20).prefix(17)   // line 8, no newline
        bytes += torn
        let path = history + "/" + utcDayName(now)
        try bytes.write(to: URL(fileURLWithPath: path))
        try s.start()

        let got = try historyRecords(s, from: 0, to: UInt64(Int64.max))
        #expect(got.map(\.at) == good.map(\.0), "\(got)")
        #expect(got.map(\.outcome) == good.map(\.1))
        #expect(got.map(\.seconds) == good.map(\.2))
        #expect(waitUntil { s.log.contains("\(path):4:") && s.log.contains("\(path):8:") },
                "the log reports both damaged lines by file and line:\n\(s.log)")
        let midnight = localMidnightMicros(now)
        let today = good.filter { $0.0 >= midnight }
        #expect(try s.number("CompletedToday") == UInt64(today.filter { $0.1 == "completed" || $0.1 == "natural" }.count))
        #expect(try s.number("SkippedToday") == UInt64(today.filter { $0.1 == "skipped" }.count))

        // The next record starts on a fresh line: the torn one stays a single damaged line.
        #expect(try s.call("Skip").status == 0)
        #expect(try s.signal(SIGTERM) == 0)
        try s.start()
        let again = try historyRecords(s, from: 0, to: UInt64(Int64.max))
        #expect(again.count == good.count + 1, "\(again)")
        #expect(again.dropLast().map(\.at) == good.map(\.0))
        #expect(again.last?.outcome == "skipped")
        let text = try String(contentsOfFile: path, encoding: .isoLatin1)
        #expect(text.hasPrefix(String(decoding: bytes, as: UTF8.self)), "the damaged lines are kept for a person to look at")
    }

    @Test func killNineDuringABurstLosesNothingThatWasSignalled() throws {
        let s = try ServiceHarness()
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }
        let stop = Flag()
        let done = DispatchSemaphore(value: 0)
        let harness = s
        DispatchQueue.global().async {
            for _ in 0..<2_000 where !stop.isSet {
                _ = try? harness.call("Skip")
            }
            done.signal()
        }
        // Killed while records are being written: after 10 of the 20 the record budget lets through at once.
        let enough = waitUntil(timeout: 30, interval: 0.005) { monitor.signals("BreakSkipped").count >= 10 }
        s.kill9()
        stop.set()
        #expect(done.wait(timeout: .now() + 30) == .success, "the burst did not stop")
        #expect(enough, "the burst produced \(monitor.signals("BreakSkipped").count) BreakSkipped signals")
        // Everything the dead service sent has reached the monitor once the bus has answered us after its death.
        _ = try s.nameHasOwner()
        let signalled = monitor.signals("BreakSkipped").compactMap { payloadNumbers($0).first }
        #expect(signalled.count >= 10)

        try s.start()
        let records = try historyRecords(s, from: 0, to: UInt64(Int64.max))
        let stored = Set(records.filter { $0.outcome == "skipped" }.map(\.at))
        let lost = signalled.filter { !stored.contains($0) }
        #expect(lost.isEmpty, "signalled but not in the history after kill -9: \(lost)")
        let midnight = localMidnightMicros(nowMicros())
        #expect(try s.number("SkippedToday") == UInt64(records.filter { $0.outcome == "skipped" && $0.at >= midnight }.count))
        #expect(try s.string("State") == "waiting")
    }

    @Test func oldHistoryIsTrimmedWhenTheLocalDayChangesNeverAtStartUp() throws {
        let now = nowMicros()
        let tz = zoneWithMidnight(inSeconds: 5, from: now)
        let s = try ServiceHarness(environment: ["TZ": tz], start: false)
        let history = s.stateDirectory + "/history"
        try FileManager.default.createDirectory(atPath: history, withIntermediateDirectories: true)
        func file(daysAgo: UInt64) -> String { history + "/" + utcDayName(now - daysAgo * Self.day) }
        let expired = [file(daysAgo: 1_800), file(daysAgo: 400), file(daysAgo: 366)]
        let kept = [file(daysAgo: 364), file(daysAgo: 30), file(daysAgo: 1)]
        for (i, path) in (expired + kept).enumerated() {
            try historyLine(utcDayStart(path) + UInt64(i) * 1_000_000, "completed", 20).write(to: URL(fileURLWithPath: path))
        }
        let recent = now - 1_000_000
        try historyLine(recent, "completed", 20).write(to: URL(fileURLWithPath: history + "/" + utcDayName(recent)))
        let notes = history + "/notes.txt"
        try Data("mine\n".utf8).write(to: URL(fileURLWithPath: notes))
        try s.start()

        #expect(try s.number("CompletedToday") == 1, "TZ \(tz)")
        for path in expired + kept { #expect(FileManager.default.fileExists(atPath: path), "removed at start-up: \(path)") }
        // Local midnight: the counters drop and the old files go, recent ones stay.
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try s.number("CompletedToday") == 0 }, "TZ \(tz); log:\n\(s.log)")
        #expect(waitUntil(timeout: 5) { expired.allSatisfy { !FileManager.default.fileExists(atPath: $0) } },
                "not trimmed at local midnight; log:\n\(s.log)")
        for path in kept + [notes, history + "/" + utcDayName(recent)] {
            #expect(FileManager.default.fileExists(atPath: path), "trimmed too much: \(path)")
        }
        #expect(try historyRecords(s, from: 0, to: UInt64(Int64.max)).count == kept.count + 1)
        #expect(s.log.contains("Removed 3"), "\(s.log)")
    }

    /// A person who logs out every evening never runs across midnight: the
    /// trim runs on the first timer wake-up of a run (here the first reminder,
    /// 2 s after the start at 600 times faster), still never at start-up itself.
    @Test func theFirstWakeUpOfARunTrimsToo() throws {
        let now = nowMicros()
        let s = try ServiceHarness(start: false)
        let history = s.stateDirectory + "/history"
        try FileManager.default.createDirectory(atPath: history, withIntermediateDirectories: true)
        let expired = history + "/" + utcDayName(now - 400 * Self.day)
        let kept = history + "/" + utcDayName(now - 30 * Self.day)
        for path in [expired, kept] {
            try historyLine(utcDayStart(path) + 1_000_000, "completed", 20).write(to: URL(fileURLWithPath: path))
        }
        try s.start(arguments: ["--log-stderr", "--debug", "--time-scale", "600"])
        #expect(FileManager.default.fileExists(atPath: expired), "removed at start-up")
        #expect(waitUntil(timeout: 10, interval: 0.1) { !FileManager.default.fileExists(atPath: expired) }, "log:\n\(s.log)")
        #expect(try s.string("State") == "due", "the wake-up was the reminder")
        #expect(FileManager.default.fileExists(atPath: kept))
    }

    /// Retention counts back from the newest record when the clock is ahead of
    /// the data (set years ahead by mistake, or a long time unused): a year of
    /// the person's history is always kept.
    @Test func theTrimKeepsAYearBeforeTheNewestRecord() throws {
        let now = nowMicros()
        let s = try ServiceHarness(environment: ["TZ": zoneWithMidnight(inSeconds: 5, from: now)], start: false)
        let history = s.stateDirectory + "/history"
        try FileManager.default.createDirectory(atPath: history, withIntermediateDirectories: true)
        func file(daysAgo: UInt64) -> String { history + "/" + utcDayName(now - daysAgo * Self.day) }
        let kept = [file(daysAgo: 1_000), file(daysAgo: 800), file(daysAgo: 700)]
        let expired = file(daysAgo: 1_100)
        for path in kept + [expired] {
            try historyLine(utcDayStart(path) + 1_000_000, "skipped", 0).write(to: URL(fileURLWithPath: path))
        }
        try s.start()
        #expect(waitUntil(timeout: 10, interval: 0.1) { !FileManager.default.fileExists(atPath: expired) }, "log:\n\(s.log)")
        for path in kept { #expect(FileManager.default.fileExists(atPath: path), "trimmed although within a year of the newest: \(path)") }
    }

    // MARK: restart continuity

    @Test func aRestartKeepsTheCountdownAPauseAndASnooze() throws {
        let s = try ServiceHarness()
        let next = try s.number("NextBreak")
        let started = next - 1_200_000_000
        // Let more than a second of the interval pass, so a fresh interval would show.
        #expect(waitUntil(timeout: 5) { nowMicros() > started + 1_500_000 })
        #expect(try s.signal(SIGTERM) == 0)
        try s.start()
        #expect(try s.string("State") == "waiting")
        #expect(try s.number("NextBreak") == next, "a restart reset the countdown")
        s.kill9()
        try s.start()
        #expect(try s.number("NextBreak") == next, "a crash reset the countdown")

        // A snooze keeps its end.
        let snoozed = try s.call("Snooze", "u", "600")
        #expect(snoozed.status == 0, "\(snoozed)")
        let until = try s.number("NextBreak")
        s.kill9()
        try s.start()
        #expect(try s.string("State") == "snoozed")
        #expect(try s.number("NextBreak") == until)

        // A timed pause keeps its end; the skip before it is still counted.
        #expect(try s.call("Skip").status == 0)
        let paused = try s.call("Pause", "u", "1800")
        #expect(paused.status == 0, "\(paused)")
        let pausedUntil = try s.number("PausedUntil")
        #expect(try s.signal(SIGTERM) == 0)
        try s.start()
        #expect(try s.string("State") == "paused")
        #expect(try s.string("PauseReason") == "user")
        #expect(try s.number("PausedUntil") == pausedUntil)
        #expect(try s.number("NextBreak") == pausedUntil + 1_200_000_000)
        #expect(try s.number("SkippedToday") == 1)

        // A pause until Resume stays one.
        #expect(try s.call("Pause", "u", "0").status == 0)
        s.kill9()
        try s.start()
        #expect(try s.string("State") == "paused")
        #expect(try s.number("PausedUntil") == 0)
        #expect(try s.call("Resume").status == 0)
        #expect(try s.string("State") == "waiting")
    }

    @Test func aRunningBreakResumesOrIsRecordedHonestly() throws {
        let s = try ServiceHarness()
        #expect(try setProperty(s, "BreakDuration", "u", "10").status == 0)
        #expect(try s.call("StartBreak").status == 0)
        let ends = try s.number("BreakEnds")

        // Restarted quickly: the same break goes on.
        s.kill9()
        try s.start()
        #expect(try s.string("State") == "break")
        #expect(try s.number("BreakEnds") == ends)
        #expect(try s.number("CompletedToday") == 0)

        // Down while it ends: recorded as completed at its end, counted at once.
        #expect(try s.signal(SIGTERM) == 0)
        #expect(waitUntil(timeout: 15, interval: 0.1) { nowMicros() > ends + 500_000 })
        try s.start()
        #expect(try s.number("CompletedToday") == 1)
        #expect(try s.string("State") == "waiting")
        #expect(try s.number("NextBreak") == ends + 1_200_000_000, "a full interval from the break's end")
        let records = try historyRecords(s, from: 0, to: UInt64(Int64.max))
        #expect(records.map(\.at) == [ends], "\(records)")
        #expect(records.first?.outcome == "completed")
        #expect(records.first?.seconds == 10)

        // Restarting again neither records it twice nor counts it twice.
        s.kill9()
        try s.start()
        #expect(try s.number("CompletedToday") == 1)
        #expect(try historyRecords(s, from: 0, to: UInt64(Int64.max)).count == 1)
    }

    /// A crash right after a break's record was stored but before the state
    /// file caught up: the restart must not record that break twice.
    @Test func aRecordStoredJustBeforeACrashIsNotRecordedTwice() throws {
        let s = try ServiceHarness(start: false)
        let now = nowMicros()
        let start = now - 15_000_000, ends = now - 5_000_000
        try FileManager.default.createDirectory(atPath: s.stateDirectory + "/history", withIntermediateDirectories: true)
        try Data("icare-engine=1\nclock=\(start)\nphase=break\nstart=\(start)\nends=\(ends)\npause=none\n".utf8)
            .write(to: URL(fileURLWithPath: s.stateDirectory + "/state"))
        try historyLine(ends, "completed", 10).write(to: URL(fileURLWithPath: s.stateDirectory + "/history/" + utcDayName(ends)))
        try s.start()
        let records = try historyRecords(s, from: 0, to: UInt64(Int64.max))
        #expect(records.count == 1, "\(records)")
        let midnight = localMidnightMicros(now)
        #expect(try s.number("CompletedToday") == (ends >= midnight ? 1 : 0))
        #expect(try s.string("State") == "waiting")
        #expect(try s.number("NextBreak") == ends + 1_200_000_000)
    }

    // MARK: the person's files

    @Test func filesArePrivateAndOnlyInTheXDGDirectories() throws {
        let s = try ServiceHarness()
        #expect(try setProperty(s, "Interval", "u", "1500").status == 0)
        #expect(try setProperty(s, "BreakDuration", "u", "10").status == 0)
        #expect(try s.call("Skip").status == 0)
        #expect(try s.call("StartBreak").status == 0)
        #expect(try s.call("Snooze", "u", "600").status == 0)
        #expect(try s.call("Pause", "u", "60").status == 0)
        #expect(try s.signal(SIGTERM) == 0)
        try s.start()
        #expect(try s.call("Resume").status == 0)
        #expect(try s.signal(SIGTERM) == 0)

        // As installed (the unit's sandbox): XDG_STATE_HOME is the unit's ~/.local/state, whose parents its
        // ExecStartPre= makes; the runtime folder is the unit's RuntimeDirectory=, made before icared starts.
        let entries = try tree(s.home.path)
        let allowed = ["config/icare/", ".local/state/icare/"]
        // The harness's own: the log, the folders the unit makes, and the app's welcome-seen (the app's folder, not icared's).
        let harness: Set<String> = ["icared.log", "runtime", "runtime/icare", "config", ".local", ".local/state", "config/icare",
                                    ".local/state/icare", ".local/state/icare-app", ".local/state/icare-app/welcome-seen"]
        let stray = entries.keys.filter { path in !harness.contains(path) && !allowed.contains { path.hasPrefix($0) } }
        #expect(stray.isEmpty, "written outside XDG_CONFIG_HOME/icare and XDG_STATE_HOME/icare: \(stray.sorted())")
        #expect(entries.keys.filter { $0.hasPrefix("runtime/icare/") }.isEmpty, "nothing left in XDG_RUNTIME_DIR/icare: \(entries.keys.sorted())")
        for must in ["config/icare/config", ".local/state/icare/state", ".local/state/icare/history/" + utcDayName(nowMicros())] {
            #expect(entries[must] != nil, "\(must) missing: \(entries.keys.sorted())")
        }
        for (path, info) in entries where path.hasPrefix("config/icare") || path.hasPrefix(".local/state/icare") || path == "runtime/icare" {
            #expect(info.mode == (info.isDirectory ? 0o700 : 0o600), "\(path) has mode \(String(info.mode, radix: 8))")
            #expect(!path.hasSuffix(".tmp"), "a temporary file was left behind: \(path)")
        }
    }

    @Test func withoutXDGVariablesTheHomeDefaultsAreUsed() throws {
        // Empty or relative XDG values are ignored, as the specification says.
        // Bare: the unit sets XDG_STATE_HOME itself.
        let s = try ServiceHarness(environment: ["XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "relative/state"], start: false)
        s.bare = true
        try s.start()
        #expect(try setProperty(s, "Interval", "u", "1500").status == 0)
        #expect(try s.call("Skip").status == 0)
        #expect(try s.signal(SIGTERM) == 0)
        let entries = try tree(s.home.path)
        #expect(entries[".config/icare/config"]?.mode == 0o600, "\(entries.keys.sorted())")
        #expect(entries[".local/state/icare/state"]?.mode == 0o600, "\(entries.keys.sorted())")
        #expect(entries[".config/icare"]?.mode == 0o700)
        #expect(entries[".local/state/icare/history"]?.mode == 0o700)
        #expect(entries.keys.filter { $0.hasPrefix("relative") || $0.hasPrefix("config/") || $0.hasPrefix("state/") }.isEmpty,
                "\(entries.keys.sorted())")
    }

    // MARK: helpers

    func setProperty(_ s: ServiceHarness, _ name: String, _ sig: String, _ value: String) throws -> ProcessResult {
        try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", name, sig, value])
    }

    struct Record: Equatable, CustomStringConvertible {
        let at: UInt64
        let outcome: String
        let seconds: UInt32
        var description: String { "(\(at) \(outcome) \(seconds))" }
    }

    /// GetHistory through busctl's JSON output.
    func historyRecords(_ s: ServiceHarness, from: UInt64, to: UInt64) throws -> [Record] {
        let r = try s.busctl(["call", "--json=short", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder",
                              "GetHistory", "tt", String(from), String(to)])
        guard r.status == 0, let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any],
              let data = json["data"] as? [Any], let list = data.first as? [[Any]] else {
            throw HarnessError("GetHistory failed: \(r)")
        }
        return try list.map { item in
            guard item.count == 3, let at = (item[0] as? NSNumber)?.uint64Value, let outcome = item[1] as? String,
                  let seconds = (item[2] as? NSNumber)?.uint32Value else { throw HarnessError("odd record \(item)") }
            return Record(at: at, outcome: outcome, seconds: seconds)
        }
    }
}

// MARK: more helpers

extension PersistenceTests {

    func nowMicros() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1_000_000) }

    /// The file's permission bits.
    func mode(_ path: String) throws -> UInt16 {
        var info = stat()
        guard stat(path, &info) == 0 else { throw HarnessError("stat \(path): errno \(errno)") }
        return UInt16(info.st_mode & 0o7777)
    }

    /// Every entry under `root` (relative paths), with mode and kind; symlinks are not followed.
    func tree(_ root: String) throws -> [String: (mode: UInt16, isDirectory: Bool)] {
        var out: [String: (mode: UInt16, isDirectory: Bool)] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else { throw HarnessError("cannot list \(root)") }
        while let relative = walker.nextObject() as? String {
            var info = stat()
            guard lstat(root + "/" + relative, &info) == 0 else { continue }
            out[relative] = (UInt16(info.st_mode & 0o7777), (info.st_mode & S_IFMT) == S_IFDIR)
        }
        return out
    }

    /// Writes `text` the way most editors save: a temporary file in the same directory, renamed over `path`.
    func writeByRenaming(_ text: String, to path: String) throws {
        let temporary = path + ".editor-\(getpid()).swp"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw HarnessError("rename \(temporary): errno \(errno)") }
    }

    /// Writes `text` into the existing file (truncate, write, close), like `echo >` or nano.
    func writeInPlace(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw HarnessError("open \(path): errno \(errno)") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw HarnessError("write \(path): errno \(errno)") }
    }

    /// The values a property was announced with in PropertiesChanged, in order (numbers and booleans).
    func changes(_ monitor: BusMonitor, _ property: String) -> [AnyHashable] {
        monitor.signals("PropertiesChanged").compactMap { message -> AnyHashable? in
            guard let payload = message["payload"] as? [String: Any], let data = payload["data"] as? [Any], data.count >= 2,
                  let changed = data[1] as? [String: Any], let variant = changed[property] as? [String: Any] else { return nil }
            switch variant["type"] as? String {
            case "b": return (variant["data"] as? Bool).map(AnyHashable.init)
            case "s": return (variant["data"] as? String).map(AnyHashable.init)
            default: return (variant["data"] as? NSNumber).map { AnyHashable($0.uint64Value) }
            }
        }
    }

    /// The numeric arguments of a signal seen by a BusMonitor.
    func payloadNumbers(_ message: [String: Any]) -> [UInt64] {
        guard let payload = message["payload"] as? [String: Any], let data = payload["data"] as? [Any] else { return [] }
        return data.compactMap { ($0 as? NSNumber)?.uint64Value }
    }

    /// The UTC day's file name of a history record: `YYYY-MM-DD`.
    func utcDayName(_ micros: UInt64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date(timeIntervalSince1970: Double(micros / 1_000_000)))
    }

    /// A POSIX TZ whose local midnight is `seconds` after `now` (offsets may
    /// have seconds; west of Greenwich is positive).
    func zoneWithMidnight(inSeconds seconds: Int, from now: UInt64) -> String {
        let utcSecond = Int(now / 1_000_000 % 86_400)
        var east = ((86_400 - seconds - utcSecond) % 86_400 + 86_400) % 86_400
        if east > 43_200 { east -= 86_400 }
        let west = -east
        return String(format: "ICT%@%02d:%02d:%02d", west < 0 ? "-" : "+", abs(west) / 3600, abs(west) / 60 % 60, abs(west) % 60)
    }

    /// The first µs of the UTC day a history file is named after.
    func utcDayStart(_ path: String) -> UInt64 {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let name = String(path.split(separator: "/").last ?? "")
        return UInt64((formatter.date(from: name)?.timeIntervalSince1970 ?? 0) * 1_000_000)
    }

    /// Local midnight (this process's zone, the same the service uses) of the day of `micros`.
    func localMidnightMicros(_ micros: UInt64) -> UInt64 {
        let start = Calendar.current.startOfDay(for: Date(timeIntervalSince1970: Double(micros) / 1_000_000))
        return UInt64(start.timeIntervalSince1970 * 1_000_000)
    }

    /// A history line as the store writes it: `<at µs> <outcome> <seconds> <crc32 hex>\n`,
    /// written out here from the documented format.
    func historyLine(_ at: UInt64, _ outcome: String, _ seconds: UInt32) -> Data {
        let body = "\(at) \(outcome) \(seconds)"
        let crc = String(crc32(Array(body.utf8)), radix: 16)
        return Data((body + " " + String(repeating: "0", count: 8 - crc.count) + crc + "\n").utf8)
    }

    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A flag one thread sets and another reads.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
    }
}
