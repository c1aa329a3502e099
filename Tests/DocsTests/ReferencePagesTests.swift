import Testing
import Foundation
import TestSupport

/// The reference pages follow the tables the code already has (issue 54, item 2): a method, signal,
/// property or setting added to the interface table (Sources/ReminderService/ReminderInterface.swift)
/// or to the settings (Sources/ReminderCore/Settings.swift) reaches dbus/org.icare.Reminder.xml through
/// scripts/regenerate (ServiceTests hold that file to the running service's Introspect), and from there:
/// - icared(8)'s methods, signals, properties and settings, its sandbox's folders (from the unit) and
///   docs/configuration.md's settings table are written by scripts/reference-pages: a page that differs
///   from what it writes fails here;
/// - docs/interface.md, whose tables say more than the descriptions, is held to the XML both ways: every
///   member is a row of its table with its types, every row is a member, and a setting's default is the
///   service's.
/// icarectl(1), its translations and its help come from the command table (GeneratedFilesTests).
@Suite struct ReferencePagesTests {
    static let xml = repository.appendingPathComponent("dbus/org.icare.Reminder.xml")

    /// `scripts/reference-pages --check`, optionally reading another XML or unit.
    static func check(xml: URL? = nil, unit: URL? = nil) throws -> ProcessResult {
        var arguments = [repository.appendingPathComponent("scripts/reference-pages").path, "--check"]
        if let xml { arguments += ["--xml", xml.path] }
        if let unit { arguments += ["--unit", unit.path] }
        return try Subprocess.run(arguments, timeout: 60)
    }

    @Test func thePagesAreWhatTheTablesWrite() throws {
        let result = try Self.check()
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        // The parts are there and hold every member (the script fails on a part it cannot find).
        let man = try String(contentsOf: repository.appendingPathComponent("man/icared.8"), encoding: .utf8)
        for member in try InterfaceXML.read(Self.xml).members {
            #expect(man.contains(".B \"\(member.name)(") || man.contains(".BR \(member.name) \""), "icared(8) lacks \(member.name)")
        }
    }

    /// A property and a setting added to the table, or a property taken out, make the pages stale; so does a
    /// folder the unit grants.
    @Test func aMemberAddedOrRemovedMakesThePagesStale() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("icare-pages-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try String(contentsOf: Self.xml, encoding: .utf8)
        let added = text.replacingOccurrences(of: "  </interface>\n</node>", with: """
                <!-- A new count. -->
                <property name="NewCount" type="u" access="read"/>
                <!-- Setting (read-write; saved to the config file before the reply). NewSetting must be true or false. Default true. -->
                <property name="NewSetting" type="b" access="readwrite"/>
              </interface>
            </node>
            """)
        #expect(added != text)
        let addedFile = folder.appendingPathComponent("added.xml")
        try added.write(to: addedFile, atomically: true, encoding: .utf8)
        let withNew = try Self.check(xml: addedFile)
        #expect(withNew.status == 1, "\(withNew)")
        #expect(withNew.stdout.contains("man/icared.8 is stale") && withNew.stdout.contains("docs/configuration.md is stale"))
        #expect(withNew.stdout.contains("+.BR NewCount \" (u)\"") && withNew.stdout.contains("+.BR NewSetting \" (b)\""))
        #expect(withNew.stdout.contains("+| `NewSetting` | true or false | `true` |"))

        let removed = try #require(text.range(of: #"    <!-- missed records[^\n]*\n    <property name="MissedToday"[^\n]*\n"#, options: .regularExpression))
        let removedFile = folder.appendingPathComponent("removed.xml")
        try text.replacingCharacters(in: removed, with: "").write(to: removedFile, atomically: true, encoding: .utf8)
        let without = try Self.check(xml: removedFile)
        #expect(without.status == 1 && without.stdout.contains("-.BR MissedToday \" (u)\""), "\(without)")

        let unit = try String(contentsOf: repository.appendingPathComponent("systemd/icared.service.in"), encoding: .utf8)
        let unitFile = folder.appendingPathComponent("icared.service.in")
        try unit.replacingOccurrences(of: "ReadWritePaths=%h/.local/state/icare\n", with: "ReadWritePaths=%h/.local/state/icare\nCacheDirectory=icare\n")
            .write(to: unitFile, atomically: true, encoding: .utf8)
        let granted = try Self.check(unit: unitFile)
        #expect(granted.status == 1 && granted.stdout.contains("+The systemd unit lets the service write only five folders:")
                && granted.stdout.contains("$XDG_CACHE_HOME/icare"), "\(granted)")
    }

    /// docs/interface.md's tables and the interface, both ways.
    @Test func theInterfacePageHasEveryMemberAndNoOther() throws {
        let xml = try InterfaceXML.read(Self.xml)
        let page = try InterfacePage(repository.appendingPathComponent("docs/interface.md"))
        func compare(_ kind: String, _ rows: [(name: String, cells: [String])], _ members: [InterfaceXML.Member],
                     _ expected: (InterfaceXML.Member) -> String) {
            #expect(rows.count >= 3, "docs/interface.md: no \(kind) table")
            let named = Set(rows.map(\.name))
            for member in members where !named.contains(member.name) {
                Issue.record("docs/interface.md has no row for the \(kind) \(member.name)")
            }
            for row in rows {
                guard let member = members.first(where: { $0.name == row.name }) else {
                    Issue.record("docs/interface.md's \(kind) table has \(row.name), which the interface lacks")
                    continue
                }
                #expect(row.cells.first == expected(member), "docs/interface.md: \(kind) \(row.name) is \(row.cells.first ?? "") on the page, \(expected(member)) in the interface")
            }
        }
        compare("method", try page.table(in: "Methods", header: "method"), xml.members.filter { $0.kind == "method" }) { m in
            let ins = m.arguments(.in), outs = m.arguments(.out)
            return (ins.isEmpty ? "–" : "`\(ins)`") + (outs.isEmpty ? "" : " → `\(outs)`")
        }
        compare("signal", try page.table(in: "Signals", header: "signal"), xml.members.filter { $0.kind == "signal" }) { "`\($0.arguments(.out))`" }
        let readOnly = try page.table(in: "Properties", header: "property | type | meaning")
        compare("read-only property", readOnly, xml.members.filter { $0.kind == "property" && $0.access == "read" }) { "`\($0.type)`" }
        let settings = try page.table(in: "Properties", header: "property | type | range | default")
        compare("setting", settings, xml.members.filter { $0.kind == "property" && $0.access == "readwrite" }) { "`\($0.type)`" }
        // A setting's default and a duration's range are the service's.
        for row in settings {
            guard let setting = xml.settings[row.name], row.cells.count == 3 else { continue }
            #expect(row.cells[2].replacingOccurrences(of: "`", with: "") == setting.defaultValue,
                    "docs/interface.md: \(row.name)'s default is \(row.cells[2]), the service's \(setting.defaultValue)")
            if let range = setting.range {
                #expect(row.cells[1].hasPrefix("\(range.lowerBound)–\(range.upperBound)"),
                        "docs/interface.md: \(row.name)'s range is \(row.cells[1]), the service's \(range)")
            }
        }
        #expect(xml.settings.count == settings.count && settings.count >= 11, "\(xml.settings.keys.sorted())")
    }

    /// Wherever the history is told, missed breaks are in it.
    @Test func theHistoryIsCompletedSkippedAndMissed() throws {
        let pages = ["man/icared.8", "man/icare.1", "man/icarectl.1", "docs/interface.md", "docs/configuration.md"]
        let sources = try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("Sources/ICareCLI").path)
            .map { "Sources/ICareCLI/\($0)" }
        for path in pages + sources {
            let text = try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
            #expect(text.range(of: "completed and skipped", options: .caseInsensitive) == nil, "\(path) tells the history without missed breaks")
        }
        let icared = try String(contentsOf: repository.appendingPathComponent("man/icared.8"), encoding: .utf8)
        #expect(icared.contains("completed, skipped and\nmissed breaks") || icared.contains("completed, skipped and missed breaks"))
    }

    /// icared(8) and icare(1) render without a groff warning (lintian's `groff-message`).
    @Test(arguments: ["man/icared.8", "man/icare.1"])
    func aPageRendersWithoutWarnings(path: String) throws {
        let man = try Subprocess.which("man")
        let env = ["LC_ALL": "C.UTF-8", "MANWIDTH": "80", "MAN_KEEP_FORMATTING": "", "MANROFFSEQ": ""]
        let page = repository.appendingPathComponent(path).path
        let checked = try Subprocess.run([man, "--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", page], environment: env)
        #expect(checked.status == 0 && checked.stderr.isEmpty, "groff warns about \(path): \(checked.stderr)")
    }
}

/// The `org.icare.Reminder` interface as dbus/org.icare.Reminder.xml describes it (as icared writes it:
/// one element a line).
struct InterfaceXML {
    enum Direction: String { case `in`, out }

    struct Member {
        let kind: String
        let name: String
        var type = ""
        var access = ""
        var arguments: [(type: String, name: String, direction: Direction)] = []

        /// `t from, t to`.
        func arguments(_ direction: Direction) -> String {
            arguments.filter { $0.direction == direction }.map { "\($0.type) \($0.name)" }.joined(separator: ", ")
        }
    }

    struct Setting {
        let defaultValue: String
        let range: ClosedRange<Int>?
    }

    var members: [Member] = []
    var settings: [String: Setting] = [:]

    static func read(_ url: URL) throws -> InterfaceXML {
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let start = text.range(of: "<interface name=\"org.icare.Reminder\">"),
              let end = text.range(of: "</interface>", range: start.upperBound..<text.endIndex) else {
            throw HarnessError("\(url.path) has no interface org.icare.Reminder")
        }
        var xml = InterfaceXML()
        var comment = ""
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("<!--") { comment = line }
            if let kind = ["method", "signal", "property"].first(where: { line.hasPrefix("<\($0) ") }) {
                var member = Member(kind: kind, name: try attribute("name", line))
                if kind == "property" {
                    member.type = try attribute("type", line)
                    member.access = try attribute("access", line)
                    if member.access == "readwrite" { xml.settings[member.name] = try setting(comment) }
                }
                xml.members.append(member)
            } else if line.hasPrefix("<arg "), !xml.members.isEmpty {
                let direction = Direction(rawValue: (try? attribute("direction", line)) ?? "out") ?? .out
                xml.members[xml.members.count - 1].arguments.append((try attribute("type", line), try attribute("name", line), direction))
            }
        }
        return xml
    }

    static func attribute(_ name: String, _ line: String) throws -> String {
        guard let found = line.range(of: " \(name)=\"[^\"]*\"", options: .regularExpression) else {
            throw HarnessError("no \(name) in \(line)")
        }
        return String(line[found].dropFirst(name.count + 3).dropLast())
    }

    /// A setting's default and range from its one-line description: "… between 900 and 2700 … Default 1200. -->".
    static func setting(_ comment: String) throws -> Setting {
        guard let found = comment.range(of: #"Default (.*)\. -->$"#, options: .regularExpression) else {
            throw HarnessError("a setting's description without its default: \(comment)")
        }
        let defaultValue = String(comment[found].dropFirst("Default ".count).dropLast(". -->".count))
        var range: ClosedRange<Int>?
        if let between = comment.range(of: #"between [0-9]+ and [0-9]+"#, options: .regularExpression) {
            let numbers = comment[between].split(separator: " ").compactMap { Int($0) }
            range = numbers[0]...numbers[1]
        }
        return Setting(defaultValue: defaultValue, range: range)
    }
}

/// docs/interface.md's tables: under a `## ` heading, the table whose header row starts as given; each row's
/// first cell (a backquoted name) and the cells after it.
struct InterfacePage {
    let lines: [String]

    init(_ url: URL) throws {
        lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
    }

    func table(in section: String, header: String) throws -> [(name: String, cells: [String])] {
        guard let start = lines.firstIndex(of: "## \(section)") else { throw HarnessError("docs/interface.md has no ## \(section)") }
        let rest = lines[(start + 1)...].prefix { !$0.hasPrefix("## ") }
        guard let head = rest.firstIndex(where: { $0.hasPrefix("| \(header)") }) else {
            throw HarnessError("docs/interface.md's \(section) has no table | \(header) …")
        }
        return rest[(head + 2)...].prefix { $0.hasPrefix("|") }.compactMap { row in
            let cells = row.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = cells.first, first.hasPrefix("`"), first.hasSuffix("`") else { return nil }
            return (String(first.dropFirst().dropLast()), Array(cells.dropFirst()))
        }
    }
}
