import Testing
import Foundation
import TestSupport

/// Every claim about a desktop is shown on that desktop (issue 54, item 3).
///
/// docs/desktops.md, "What iCare does on each desktop" holds **the claims table**: one row for
/// each thing iCare does (its first cell; empty: the same as the row above) on one desktop and version (the
/// second), what a person sees there (the third) and the tests that show it (the fourth). The rules:
///
/// 1. **Every test the page names exists.** Each code span on docs/desktops.md shaped like a test's name
///    (`SomethingTests`, or `SomethingTests.someFunction`) is a test target (a folder of Tests/), a suite (a
///    type or extension in Tests/ whose name ends in `Tests`, or one marked `@Suite`) or, after the dot, a
///    `@Test` function of a file that declares that suite.
/// 2. **Every row of the claims table cites a test**: its last cell has at least one such name, and
///    nothing else in code spans; each thing in `capabilities` has a row.
/// 3. **A desktop is named only where a test runs it, and only with versions a test runs.** `desktops`
///    lists the desktops, panels, notification servers and phone bridges people know, each with a family
///    (`xfce4-panel` is XFCE). The versions run are those the claims table's second column gives each
///    name (`GNOME Shell 48.7 and 50.5`); a family is run when one of its names has a version there. On
///    `claimPages` (the pages a person reads: README.md, docs/using.md, docs/install.md, docs/configuration.md,
///    docs/flatpak.md, docs/phones.md, the extension's README), the app's AppStream description and
///    docs/desktops.md itself, outside code and link targets: a desktop of a family not run, a version after a name that
///    is no prefix of a version run for it (`GNOME 48` is 48.7, `GNOME 44` is none), and an open range
///    after a name (`48+`, `48 and later`) are each a problem — except in docs/desktops.md's section
///    "Not verified, and why", where what was not run is said as such. A paragraph is read as one line,
///    so a name and its versions may be broken over lines. (This is stricter than "a link to desktops.md
///    or a desktop the table covers": a desktop not run is named nowhere else, link or not.)
/// 4. The versions of the Debian 13 and testing roots (`DesktopRoot.Release`) are in the table.
///
/// `theCheckerFindsEachKindOfProblem` runs the same checks on a small page made wrong on purpose.
@Suite struct DesktopClaimsTests {
    static let claimsHeading = "What iCare does on each desktop"
    static let notVerifiedHeading = "Not verified, and why"
    /// What the claims table must have rows for (matched in its first column, ignoring case).
    static let capabilities = ["Start, Snooze and Skip", "full screen", "ring", "do-not-disturb", "sounds",
                               "calls, screen shares", "time away", "phones"]
    /// The pages whose claims about desktops are checked besides docs/desktops.md.
    static let claimPages = ["README.md", "docs/using.md", "docs/install.md", "docs/configuration.md", "docs/flatpak.md",
                             "docs/phones.md", "gnome-extension/README.md"]
    static let metainfo = "data/org.icare.Reminder.metainfo.xml.in"

    struct Desktop {
        let name: String
        let family: String
        let pattern: String
    }

    /// Desktops and their parts, as people name them (letter case matters: `MATE`, not "mate").
    static let desktops: [Desktop] = [
        Desktop(name: "GNOME Shell", family: "GNOME", pattern: #"\bGNOME(?: Shell)?\b"#),
        Desktop(name: "KDE Plasma", family: "KDE Plasma", pattern: #"\b(?:KDE Plasma|Plasma|KDE(?! Connect))\b"#),
        Desktop(name: "KDE Connect", family: "KDE Connect", pattern: #"\bKDE Connect\b"#),
        Desktop(name: "GSConnect", family: "GSConnect", pattern: #"\bGSConnect\b"#),
        Desktop(name: "XFCE", family: "XFCE", pattern: #"\b(?:XFCE|Xfce)\b"#),
        Desktop(name: "xfce4-notifyd", family: "XFCE", pattern: #"\bxfce4-notifyd\b"#),
        Desktop(name: "xfce4-panel", family: "XFCE", pattern: #"\bxfce4-panel\b"#),
        Desktop(name: "xfwm4", family: "XFCE", pattern: #"\bxfwm4\b"#),
        Desktop(name: "notification-daemon", family: "notification-daemon", pattern: #"\bnotification-daemon\b"#),
        Desktop(name: "dunst", family: "dunst", pattern: #"\bdunst\b"#),
        Desktop(name: "mako", family: "mako", pattern: #"\bmako\b"#),
        Desktop(name: "swaync", family: "swaync", pattern: #"\b(?:swaync|SwayNotificationCenter)\b"#),
        Desktop(name: "sway", family: "sway", pattern: #"\b[Ss]way\b"#),
        Desktop(name: "waybar", family: "waybar", pattern: #"\bwaybar\b"#),
    ] + ["Cinnamon", "MATE", "LXQt", "LXDE", "Budgie", "Pantheon", "COSMIC", "Deepin", "Enlightenment", "Unity",
         "Hyprland", "river", "labwc", "Wayfire", "niri", "i3", "Openbox", "polybar", "i3blocks"].map {
        Desktop(name: $0, family: $0, pattern: "\\b\($0)\\b")
    }

    // MARK: reading the pages

    /// A Markdown page as blocks of text a person reads: each paragraph, list item or table joined into one
    /// line (code spans turned into `x`s, links into their words), with its first line's number and section.
    struct Block {
        let text: String
        let line: Int
        let section: String
    }

    static func blocks(_ markdown: String) -> [Block] {
        var result: [Block] = []
        var section = "", current: [String] = [], first = 0, inCode = false
        func flush() {
            if !current.isEmpty { result.append(Block(text: current.joined(separator: " "), line: first, section: section)) }
            current = []
        }
        for (index, raw) in markdown.components(separatedBy: "\n").enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") { inCode.toggle(); flush(); continue }
            if inCode { continue }
            let line = MarkdownFile.linkWords(MarkdownFile.blankingCodeSpans(raw))
            if let heading = MarkdownFile.headingText(trimmed) {
                flush()
                if trimmed.hasPrefix("## ") { section = heading }
                result.append(Block(text: line, line: index + 1, section: section))
            } else if trimmed.hasPrefix("|") {
                flush()
                result.append(Block(text: line, line: index + 1, section: section))
            } else if trimmed.isEmpty || trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ")
                        || trimmed.range(of: #"^\d+\. "#, options: .regularExpression) != nil {
                flush()
                if !trimmed.isEmpty { current = [line]; first = index + 1 }
            } else {
                if current.isEmpty { first = index + 1 }
                current.append(line)
            }
        }
        flush()
        return result
    }

    /// The AppStream description's text: each `<p>` and `<li>` a paragraph of its own, tags dropped.
    static func description(ofMetainfo xml: String) -> String {
        guard let start = xml.range(of: "<description>"), let end = xml.range(of: "</description>") else { return "" }
        return String(xml[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: #"<[^>]+>"#, with: "\n", options: .regularExpression)
            .components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: "\n\n")
    }

    // MARK: the claims table

    struct Row {
        let what: String
        let desktop: String
        let sees: String
        let shownBy: String
        let line: Int
    }

    /// The first table after the heading `## What iCare does on each desktop`, its header and rule left out.
    static func claimsTable(_ markdown: String) -> [Row] {
        let lines = markdown.components(separatedBy: "\n")
        guard let heading = lines.firstIndex(of: "## \(claimsHeading)") else { return [] }
        var rows: [Row] = [], what = "", started = false
        for index in (heading + 1)..<lines.count {
            let line = lines[index]
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("|") else {
                if started { break }
                continue
            }
            defer { started = true }
            guard started, !line.hasPrefix("| ---") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4 else {
                rows.append(Row(what: what, desktop: "", sees: "", shownBy: "", line: index + 1))
                continue
            }
            if !cells[0].isEmpty { what = cells[0] }
            rows.append(Row(what: what, desktop: cells[1], sees: cells[2], shownBy: cells[3], line: index + 1))
        }
        return rows
    }

    /// What follows a desktop's name: the versions (`48.7 and 50.5`, `45 to 50`) and whether an open range
    /// follows them (`+`, `and later`).
    static let versionsAfterName = try! NSRegularExpression(
        pattern: #"^\s+v?(\d+(?:\.\d+)*)((?:\s*(?:,|and|or|to|–|/)\s*\d+(?:\.\d+)*)*)(\+|\s+(?:and|or) (?:later|newer|above)|\s+onwards)?"#)

    struct Mention {
        let desktop: Desktop
        let versions: [String]
        let openRange: Bool
    }

    static func mentions(in text: String) -> [Mention] {
        let ns = text as NSString
        var result: [Mention] = []
        for desktop in desktops {
            let regex = try! NSRegularExpression(pattern: desktop.pattern)
            for match in regex.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                let rest = ns.substring(from: match.range.upperBound)
                var versions: [String] = [], open = false
                if let v = versionsAfterName.firstMatch(in: rest, range: NSRange(location: 0, length: (rest as NSString).length)) {
                    let r = rest as NSString
                    versions.append(r.substring(with: v.range(at: 1)))
                    if v.range(at: 2).location != NSNotFound {
                        let more = r.substring(with: v.range(at: 2))
                        versions += more.split(whereSeparator: { !$0.isNumber && $0 != "." }).map(String.init).filter { !$0.isEmpty }
                    }
                    open = v.range(at: 3).location != NSNotFound
                }
                result.append(Mention(desktop: desktop, versions: versions, openRange: open))
            }
        }
        return result
    }

    /// The versions the claims table gives each desktop's name, from its second column.
    static func versionsRun(_ rows: [Row]) -> [String: Set<String>] {
        var run: [String: Set<String>] = [:]
        for row in rows {
            let cell = MarkdownFile.linkWords(MarkdownFile.blankingCodeSpans(row.desktop))
            for mention in mentions(in: cell) where !mention.versions.isEmpty {
                run[mention.desktop.name, default: []].formUnion(mention.versions)
            }
        }
        return run
    }

    // MARK: the tests in Tests/

    struct TestIndex {
        /// Targets, suites and extensions of suites.
        var suites: Set<String> = []
        /// For each suite, the `@Test` functions of the files that declare it.
        var functions: [String: Set<String>] = [:]

        func has(_ name: String) -> Bool {
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            guard suites.contains(parts[0]) else { return false }
            return parts.count == 1 || functions[parts[0], default: []].contains(parts[1])
        }

        static func reading(_ tests: URL) throws -> TestIndex {
            var index = TestIndex()
            let fm = FileManager.default
            for folder in try fm.contentsOfDirectory(atPath: tests.path) where folder.hasSuffix("Tests") {
                index.suites.insert(folder)
            }
            let types = try NSRegularExpression(pattern: #"(@Suite[^\n]*?\n?\s*)?(?:(?:final|public|private)\s+)*\b(?:struct|class|enum|actor|extension)\s+([A-Z]\w*)"#)
            let tests_ = try NSRegularExpression(pattern: #"@Test\b(?:(?!\bfunc\b)[\s\S]){0,400}?\bfunc\s+(\w+)"#)
            let files = fm.enumerator(atPath: tests.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            for file in files {
                let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
                let ns = text as NSString, all = NSRange(location: 0, length: ns.length)
                let declared = types.matches(in: text, range: all).compactMap { m -> String? in
                    let name = ns.substring(with: m.range(at: 2))
                    return m.range(at: 1).location != NSNotFound || name.hasSuffix("Tests") ? name : nil
                }
                let functions = tests_.matches(in: text, range: all).map { ns.substring(with: $0.range(at: 1)) }
                for suite in declared {
                    index.suites.insert(suite)
                    index.functions[suite, default: []].formUnion(functions)
                }
            }
            return index
        }
    }

    /// Code spans shaped like a test's name: `SomethingTests` or `SomethingTests.someFunction`.
    static func testNames(in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: #"`([A-Z][A-Za-z0-9]*Tests(?:\.[a-z][A-Za-z0-9]*)?)`"#)
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range(at: 1)) }
    }

    // MARK: the checks

    /// Rule 1: the test names of the page that no test carries.
    static func missingTests(_ desktopsPage: String, _ index: TestIndex) -> [String] {
        var missing: [String] = []
        for (number, line) in desktopsPage.components(separatedBy: "\n").enumerated() {
            for name in testNames(in: line) where !index.has(name) { missing.append("line \(number + 1): \(name)") }
        }
        return missing
    }

    /// Rule 2: rows that cite no test (or put something else in their last cell), and capabilities with no row.
    static func rowProblems(_ rows: [Row]) -> [String] {
        var problems: [String] = []
        if rows.isEmpty { problems.append("no claims table under \"## \(claimsHeading)\"") }
        for row in rows {
            let spans = row.shownBy.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            if row.desktop.isEmpty {
                problems.append("line \(row.line): not four cells")
            } else if spans.isEmpty {
                problems.append("line \(row.line): \(row.desktop) cites no test")
            } else if let other = spans.first(where: { testNames(in: "`\($0)`").isEmpty }) {
                problems.append("line \(row.line): `\(other)` is no test's name")
            }
        }
        for capability in capabilities where !rows.contains(where: { $0.what.lowercased().contains(capability.lowercased()) }) {
            problems.append("no row for \(capability)")
        }
        return problems
    }

    /// Rule 3: each desktop, version or open range named outside what the claims table shows.
    static func namingProblems(page: String, _ text: String, run: [String: Set<String>], exempt: String? = nil) -> [String] {
        let families = Set(desktops.filter { run[$0.name] != nil }.map(\.family))
        var problems: [String] = []
        for block in blocks(text) where block.section != exempt {
            for mention in mentions(in: block.text) {
                let place = "\(page):\(block.line): \(mention.desktop.name)"
                guard families.contains(mention.desktop.family) else {
                    problems.append("\(place): no test runs it"); continue
                }
                for version in mention.versions {
                    let wanted = version.split(separator: ".")
                    if !run[mention.desktop.name, default: []].contains(where: { $0.split(separator: ".").starts(with: wanted) }) {
                        problems.append("\(place) \(version): no test runs that version")
                    }
                }
                if mention.openRange { problems.append("\(place) \(mention.versions.last ?? ""): an open range") }
            }
        }
        return problems
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    // MARK: the tests

    @Test func everyTestThePageNamesExists() throws {
        let page = try Self.read("docs/desktops.md")
        let index = try TestIndex.reading(repository.appendingPathComponent("Tests"))
        #expect(Self.testNames(in: page).count > 40)
        let missing = Self.missingTests(page, index)
        #expect(missing.isEmpty, "docs/desktops.md names tests that are not in Tests/:\n\(missing.joined(separator: "\n"))")
    }

    @Test func everyRowOfTheClaimsTableCitesATest() throws {
        let rows = Self.claimsTable(try Self.read("docs/desktops.md"))
        #expect(rows.count > 30, "\(rows.count) rows")
        let problems = Self.rowProblems(rows)
        #expect(problems.isEmpty, "\n\(problems.joined(separator: "\n"))")
    }

    @Test func noPageNamesADesktopOrAVersionNoTestRuns() throws {
        let page = try Self.read("docs/desktops.md")
        let run = Self.versionsRun(Self.claimsTable(page))
        var problems = Self.namingProblems(page: "docs/desktops.md", page, run: run, exempt: Self.notVerifiedHeading)
        for path in Self.claimPages {
            problems += Self.namingProblems(page: path, try Self.read(path), run: run)
        }
        let description = Self.description(ofMetainfo: try Self.read(Self.metainfo))
        #expect(description.contains("notification"), "no description read from \(Self.metainfo)")
        problems += Self.namingProblems(page: Self.metainfo, description, run: run)
        #expect(problems.isEmpty, "\n\(problems.joined(separator: "\n"))")
        // The section that may name what was not run is there, and does.
        #expect(Self.blocks(page).contains { $0.section == Self.notVerifiedHeading && $0.text.contains("Cinnamon") })
    }

    @Test func theRootsVersionsAreTheTables() throws {
        let run = Self.versionsRun(Self.claimsTable(try Self.read("docs/desktops.md")))
        for release in DesktopRoot.Release.allCases {
            #expect(run["GNOME Shell", default: []].contains(release.gnomeShell), "GNOME Shell \(release.gnomeShell) (\(release))")
            #expect(run["KDE Plasma", default: []].contains(release.plasma), "KDE Plasma \(release.plasma) (\(release))")
        }
    }

    /// The checks find what a page made wrong on purpose says, and let what is right pass.
    @Test func theCheckerFindsEachKindOfProblem() throws {
        let page = """
            # Desktops

            Where it runs, on GNOME Shell 48 (a version run) and in `Cinnamon` (code), see [GNOME 44](desktops.md).

            ## \(Self.claimsHeading)

            | what | desktop and version | what you see | shown by |
            | --- | --- | --- | --- |
            | **The ring** | GNOME Shell 48.7 and 50.5 | the ring | `ShellExtensionRootTests` |
            | | xfce4-panel 4.18 (XFCE) | the ring | `XfcePanelTests.noSuchFunction` |
            | | KDE Plasma 6.7.4 | the ring | no test |
            | | sway 1.7 | the ring | `NoSuchSuiteTests`, `notATest` |

            ## Elsewhere

            Held back on Plasma 6.4 and later, on GNOME
            45 to 50, on XFCE 4.18 and on Cinnamon; GNOME Shell 50+.

            ## \(Self.notVerifiedHeading)

            - Cinnamon, MATE and GNOME 44: not run.
            """
        let index = try TestIndex.reading(repository.appendingPathComponent("Tests"))
        #expect(Self.missingTests(page, index) == ["line 10: XfcePanelTests.noSuchFunction", "line 12: NoSuchSuiteTests"])
        let rows = Self.claimsTable(page)
        #expect(rows.map(\.what) == ["**The ring**", "**The ring**", "**The ring**", "**The ring**"])
        let rowProblems = Self.rowProblems(rows)
        #expect(rowProblems.prefix(2) == ["line 11: KDE Plasma 6.7.4 cites no test", "line 12: `notATest` is no test's name"])
        #expect(rowProblems.dropFirst(2).count == Self.capabilities.count - 1, "\(rowProblems)")
        let run = Self.versionsRun(rows)
        #expect(run["GNOME Shell"] == Set(["48.7", "50.5"]) && run["xfce4-panel"] == Set(["4.18"]) && run["XFCE"] == nil)
        let naming = Self.namingProblems(page: "p", page, run: run, exempt: Self.notVerifiedHeading)
        #expect(naming == [
            "p:3: GNOME Shell 44: no test runs that version",
            "p:16: GNOME Shell 45: no test runs that version",
            "p:16: GNOME Shell 50: an open range",
            "p:16: KDE Plasma 6.4: no test runs that version",
            "p:16: KDE Plasma 6.4: an open range",
            "p:16: XFCE 4.18: no test runs that version",
            "p:16: Cinnamon: no test runs it",
        ], "\(naming)")
        // The AppStream description is read as its text.
        let xml = "<component><description><p>Pauses on MATE.</p><ul><li>A ring on GNOME 46</li></ul></description></component>"
        #expect(Self.namingProblems(page: "m", Self.description(ofMetainfo: xml), run: run)
                == ["m:1: MATE: no test runs it", "m:3: GNOME Shell 46: no test runs that version"])
    }
}
