import FileKit
import FileSupport
import Glibc
import ReminderCore
import Testing
@testable import ICareFiles

@Suite struct ConfigFileTests {
    /// A hand-written file: comments of both kinds, an unknown key, a bad
    /// value, odd spacing and case, an inline comment and a garbage line.
    static let handWritten = """
        # My iCare settings
        ; written by hand

          interval   =  25m   # a bit longer
        BREAKDURATION=15
        SnoozeDuration = 99999
        ColorScheme = dark
        this line makes no sense
        ActiveHours = "09:00-17:30"
        dndpolicy = DEFER
        sound = no

        """

    @Test func handWrittenFileLoadsEverythingButTheBadLine() throws {
        let temp = try TemporaryDirectory()
        let config = ConfigFile(path: temp.join("config"))
        try writeFixture(Self.handWritten, to: config.path)
        let before = try contents(config.path)
        var previous = Settings()
        try previous.set(.snoozeDuration, to: .uint(600))

        let (settings, problems) = config.load(previous: previous)

        #expect(settings.interval == 1500)
        #expect(settings.breakDuration == 15)
        #expect(settings.snoozeDuration == 600, "a bad value keeps the previous value")
        #expect(settings.activeHours == ActiveHours("09:00-17:30"))
        #expect(settings.dndPolicy == .defer)
        #expect(settings.sound == false)
        #expect(settings.weekdaysOnly == false)
        #expect(problems.map(\.line) == [6, 7, 8])
        #expect(problems.map(\.severity) == [.error, .warning, .error])
        #expect(problems[0].description == "\(config.path):6: error: SnoozeDuration must be between 60 and 1800 seconds (1–30 min). It keeps the value 10m.")
        #expect(problems[1].message.contains("ColorScheme"))
        #expect(try contents(config.path) == before, "loading never rewrites the file")
    }

    @Test func missingFileMeansDefaultsAndIsNotCreated() throws {
        let temp = try TemporaryDirectory()
        let config = ConfigFile(path: temp.join("icare/config"))
        let previous = try Settings().setting(.interval, to: .uint(900))
        let (settings, problems) = config.load(previous: previous)
        #expect(settings == Settings())
        #expect(problems.isEmpty)
        #expect(permissions(temp.join("icare")) == nil)
    }

    @Test func removingAKeyRestoresItsDefault() throws {
        let temp = try TemporaryDirectory()
        let config = ConfigFile(path: temp.join("config"))
        try writeFixture("Sound = false\n", to: config.path)
        let previous = try Settings().setting(.interval, to: .uint(900)).setting(.sound, to: .bool(false))
        let (settings, problems) = config.load(previous: previous)
        #expect(settings.interval == 1200)
        #expect(settings.sound == false)
        #expect(problems.isEmpty)
    }

    @Test func lastGoodDuplicateWinsAndIsReported() throws {
        let (settings, problems) = ConfigFile.parse(
            Array("Interval = 30m\ninterval = 40m\nINTERVAL = 2h\n".utf8), path: "c", previous: Settings())
        #expect(settings.interval == 2400)
        #expect(problems.map(\.line) == [2, 3, 3])
        #expect(problems.map(\.severity) == [.warning, .warning, .error])
        #expect(problems[0].message == "Interval is also set on line 1; the last good line wins.")
    }

    @Test func foreignGroupsAreSkippedAndICareGroupIsRead() throws {
        let text = "[iCare]\nInterval = 30m\n[Other]\nInterval = 40m\nBogus\n[ICARE]\nSound = off\n"
        let (settings, problems) = ConfigFile.parse(Array(text.utf8), path: "c", previous: Settings())
        #expect(settings.interval == 1800)
        #expect(settings.sound == false)
        #expect(problems.map(\.line) == [3, 5])
    }

    @Test func emptyAndQuotedValues() throws {
        let text = "ActiveHours =\nDndPolicy = \"ignore\" ; quiet\n"
        let previous = try Settings().setting(.activeHours, to: .string("08:00-12:00"))
        let (settings, problems) = ConfigFile.parse(Array(text.utf8), path: "c", previous: previous)
        #expect(settings.activeHours == nil)
        #expect(settings.dndPolicy == .ignore)
        #expect(problems.isEmpty)
    }

    @Test func unreadableFileKeepsThePreviousSettings() throws {
        let temp = try TemporaryDirectory()
        try Directory.ensure(temp.join("config"))  // a directory where the file should be
        let previous = try Settings().setting(.interval, to: .uint(900))
        let (settings, problems) = ConfigFile(path: temp.join("config")).load(previous: previous)
        #expect(settings == previous)
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("open(\(temp.join("config"))): not a regular file but a directory") == true)
        #expect(problems.first?.message.contains("the settings stay as they were") == true)
    }

    @Test func unreadableFileAtStartMeansTheDefaults() throws {
        let temp = try TemporaryDirectory()
        #expect(mkfifo(temp.join("config"), 0o600) == 0)
        let (settings, problems) = ConfigFile(path: temp.join("config")).load(previous: nil)
        #expect(settings == Settings())
        #expect(problems.map(\.message) == ["The file could not be read (open(\(temp.join("config"))): not a regular file but a named pipe); the defaults apply."])
    }

    @Test func aFileOverTheLimitIsRefusedNotRead() throws {
        let temp = try TemporaryDirectory()
        let path = temp.join("config")
        try AtomicFile.write([UInt8](repeating: UInt8(ascii: "#"), count: ConfigFile.sizeLimit + 1), to: path)
        let (settings, problems) = ConfigFile(path: path).load(previous: nil)
        #expect(settings == Settings())
        #expect(problems.first?.message.contains("read(\(path)): File too large") == true)
    }

    @Test func writeChangesOnlyThatLine() throws {
        let temp = try TemporaryDirectory()
        let config = ConfigFile(path: temp.join("config"))
        try writeFixture(Self.handWritten, to: config.path)
        try config.write(.interval, .uint(1800))
        let expected = Self.handWritten.replacingOccurrences(
            of: "  interval   =  25m   # a bit longer", with: "  interval   =  30m   # a bit longer")
        #expect(try text(config.path) == expected)

        try config.write(.activeHours, .string("22:00-06:00"))
        #expect(try text(config.path).contains("ActiveHours = \"22:00-06:00\"\n"), "quotes are kept")
        try config.write(.sound, .bool(true))
        #expect(try text(config.path).contains("\nsound = true\n"), "the person's spelling of the key is kept")
        #expect(permissions(config.path) == 0o600)
    }

    @Test func writeKeepsOtherBytesExactlyEvenInvalidUTF8AndCRLF() throws {
        let temp = try TemporaryDirectory()
        let config = ConfigFile(path: temp.join("config"))
        let head: [UInt8] = Array("# caf".utf8) + [0xE9, 0xFF] + Array("\r\nSound = yes\r\n".utf8)
        let tail: [UInt8] = Array("Interval=20m\r\n\u{0}junk\n".utf8)
        try writeFixture(head + tail, to: config.path)
        try config.write(.sound, .bool(false))
        #expect(try contents(config.path) == Array(head.prefix(7)) + Array("\r\nSound = false\r\n".utf8) + tail)
    }

    @Test func writeAppendsAnAbsentKeyAndFixesAMissingNewline() throws {
        let temp = try TemporaryDirectory()
        let config = ConfigFile(path: temp.join("config"))
        try writeFixture("# mine\nSound = false", to: config.path)
        try config.write(.weekdaysOnly, .bool(true))
        #expect(try text(config.path) == "# mine\nSound = false\nWeekdaysOnly = true\n")
    }

    @Test func writeAfterAForeignGroupOpensAnICareGroup() throws {
        let temp = try TemporaryDirectory()
        let config = ConfigFile(path: temp.join("config"))
        try writeFixture("Sound = false\n[Other]\nInterval = 40m\n", to: config.path)
        try config.write(.interval, .uint(1500))
        #expect(try text(config.path) == "Sound = false\n[Other]\nInterval = 40m\n\n[iCare]\nInterval = 25m\n")
        #expect(config.load(previous: Settings()).settings.interval == 1500)
    }

    @Test func writeOfAnInvalidValueWritesNothing() throws {
        let temp = try TemporaryDirectory()
        let config = ConfigFile(path: temp.join("config"))
        #expect(throws: ConfigError.invalidValue(SettingError(key: .interval, reason: SettingKey.interval.allowed))) {
            try config.write(.interval, .uint(10))
        }
        #expect(throws: ConfigError.self) { try config.write(.activeHours, .string("9:00-17:00\nSound = false")) }
        #expect(permissions(config.path) == nil)
    }

    @Test func writtenValuesAreNormalised() throws {
        let temp = try TemporaryDirectory()
        let config = ConfigFile(path: temp.join("config"))
        try writeFixture("ActiveHours = 08:00-12:00\n", to: config.path)
        try config.write(.activeHours, .string(" 09:00-17:00\n"))
        #expect(try text(config.path) == "ActiveHours = 09:00-17:00\n")
    }

    @Test func firstWriteCreatesACommentedTemplate() throws {
        let temp = try TemporaryDirectory()
        let paths = try XDGPaths(environment: ["XDG_CONFIG_HOME": temp.join("xdg"), "HOME": temp.path])
        let config = ConfigFile(paths: paths)
        try config.write(.snoozeDuration, .uint(600))

        #expect(permissions(temp.join("xdg")) == 0o700)
        #expect(permissions(paths.configDirectory) == 0o700)
        #expect(permissions(paths.configFile) == 0o600)
        let text = try text(paths.configFile)
        #expect(text.contains("\nSnoozeDuration = 10m\n"))
        #expect(text.contains("#Interval = 20m\n"))
        #expect(text.contains("Time between breaks, 15m to 45m. Default: 20m."))
        #expect(text.contains("20m,\n# 90s or 1h30m"))
        for key in SettingKey.allCases { #expect(text.contains(key.name)) }
        let (settings, problems) = config.load(previous: Settings())
        #expect(problems.isEmpty)
        #expect(try settings == Settings().setting(.snoozeDuration, to: .uint(600)))
        // Every commented example is a valid line once uncommented.
        let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("#") && !$0.hasPrefix("# ") && $0 != "#" ? String($0.dropFirst()) : String($0) }
            .joined(separator: "\n")
        #expect(uncommented.contains("\nInterval = 20m\n"))
        #expect(ConfigFile.parse(Array(uncommented.utf8), path: "t", previous: Settings()).problems.isEmpty)
    }

    @Test func aSecondSetUncommentsTheTemplatesLineInsteadOfAppending() throws {
        let temp = try TemporaryDirectory()
        let config = ConfigFile(path: temp.join("config"))
        try config.write(.snoozeDuration, .uint(600))
        let template = try text(config.path)
        try config.write(.interval, .uint(1500))
        let after = try text(config.path)
        // The line under Interval's explanation, uncommented; nothing appended.
        #expect(after == template.replacingOccurrences(of: "\n#Interval = 20m\n", with: "\nInterval = 25m\n"))
        #expect(after.components(separatedBy: "Interval = ").count == 2, "one Interval line, not two")
        #expect(after.hasSuffix("#FullScreenReminders = false\n"))
        // And again: that line now changes in place.
        try config.write(.interval, .uint(1800))
        #expect(try text(config.path) == template.replacingOccurrences(of: "\n#Interval = 20m\n", with: "\nInterval = 30m\n"))
        #expect(config.load(previous: Settings()).settings.interval == 1800)
    }

    @Test func proseCommentsAreNeverUncommented() throws {
        let temp = try TemporaryDirectory()
        let config = ConfigFile(path: temp.join("config"))
        let mine = "# Interval = 30m was too long\n;Interval = 35m\n; note #Interval = 5m\n[Other]\n#Interval = 40m\n"
        try writeFixture(mine, to: config.path)
        try config.write(.interval, .uint(1500))
        #expect(try text(config.path) == mine + "\n[iCare]\nInterval = 25m\n")
    }

    @Test(arguments: [
        (SettingKey.interval, SettingValue.uint(1230)), (.interval, .uint(2700)), (.breakDuration, .uint(10)),
        (.snoozeDuration, .uint(90)), (.snoozeDuration, .uint(1800)), (.activeHours, .string("22:00-06:30")),
        (.activeHours, .string("")), (.weekdaysOnly, .bool(true)), (.dndPolicy, .string("defer")), (.sound, .bool(false)),
    ])
    func valuesRoundTrip(key: SettingKey, value: SettingValue) throws {
        let temp = try TemporaryDirectory()
        let config = ConfigFile(path: temp.join("config"))
        try config.write(key, value)  // template
        #expect(config.load(previous: Settings()).settings.value(of: key) == value)
        try writeFixture("# existing\n", to: config.path)
        try config.write(key, value)  // appended
        try config.write(key, value)  // replaced in place
        let (settings, problems) = config.load(previous: Settings())
        #expect(settings.value(of: key) == value)
        #expect(problems.isEmpty)
    }

    @Test func durationsAreWrittenForPeople() {
        #expect(SettingValue.uint(1200).configText(for: .interval) == "20m")
        #expect(SettingValue.uint(90).configText(for: .snoozeDuration) == "1m30s")
        #expect(SettingValue.uint(20).configText(for: .breakDuration) == "20s")
        #expect(SettingValue.uint(1230).configText(for: .interval) == "20m30s")
    }
}
