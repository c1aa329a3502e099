import Testing
import Foundation
import TestSupport

/// docs/privacy.md is held to icared's unit: every folder the unit lets icared write is a row of its
/// table, every row is a grant the unit makes, every page that counts those folders says the unit's
/// number, and the unit lets icared open only unix sockets, as the page and the README say. Its lists
/// of what icared opens are well formed (PrivacyWatchTests holds them to a watched session), and its
/// Flatpak permissions are the manifest's.
@Suite struct PrivacyPageTests {
    static let writableKeys = ["ReadWritePaths", "ConfigurationDirectory", "StateDirectory", "CacheDirectory",
                               "LogsDirectory", "RuntimeDirectory", "BindPaths"]

    /// The unit's `[Service]` lines `KEY=VALUE` whose key is one of `keys`.
    static func unitLines(_ keys: [String]) throws -> [String] {
        let unit = try String(contentsOf: repository.appendingPathComponent("systemd/icared.service.in"), encoding: .utf8)
        return unit.split(separator: "\n").map(String.init).filter { line in
            keys.contains { line.hasPrefix($0 + "=") } && !line.hasSuffix("=")
        }
    }

    /// The grants the page's table names: its rows' first cells, in backquotes.
    static func pageGrants(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            let grant = String(line[line.index(line.startIndex, offsetBy: 3)..<end])
            return writableKeys.contains { grant.hasPrefix($0 + "=") } ? grant : nil
        }
    }

    @Test func everyWritableGrantOfTheUnitIsOnThePageAndNoOther() throws {
        let page = try String(contentsOf: repository.appendingPathComponent("docs/privacy.md"), encoding: .utf8)
        let grants = try Self.unitLines(Self.writableKeys)
        #expect(grants.count >= 4, "the unit's grants: \(grants)")
        let named = Self.pageGrants(page)
        for grant in grants { #expect(named.contains(grant), "docs/privacy.md does not name the unit's \(grant)") }
        for row in named { #expect(grants.contains(row), "docs/privacy.md names \(row), which the unit does not grant") }
    }

    @Test func theUnitAllowsOnlyUnixSocketsAsThePageSays() throws {
        #expect(try Self.unitLines(["RestrictAddressFamilies"]) == ["RestrictAddressFamilies=AF_UNIX"])
        #expect(try Self.unitLines(["PrivateNetwork"]) == ["PrivateNetwork=yes"])
        let page = try String(contentsOf: repository.appendingPathComponent("docs/privacy.md"), encoding: .utf8)
        #expect(page.contains("icared opens no network socket"))
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("opens no network socket") && readme.contains("(docs/privacy.md)"))
    }

    @Test func aGrantMissingFromThePageIsFound() {
        let page = "| `ReadWritePaths=%h/.local/state/icare` | the history |\n| `ConfigurationDirectory=icare` | settings |\n"
        #expect(Self.pageGrants(page) == ["ReadWritePaths=%h/.local/state/icare", "ConfigurationDirectory=icare"])
        #expect(!Self.pageGrants(page).contains("ReadWritePaths=-%E/kdeconnect"))
    }

    static let numbers = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    /// Every "N folders" (or "N writable folders") in the pages that speak of icared's sandbox, as numbers.
    static func folderCounts(_ text: String) -> [String] {
        let pattern = #"\b(one|two|three|four|five|six|seven|eight|nine|ten|[0-9]+) (writable )?folders\b"#
        guard let re = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return [] }
        return re.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { text[$0].lowercased() }
        }
    }

    /// The files that count the folders icared may write: the README, docs/, the man pages and the unit.
    static func countingPages() throws -> [URL] {
        let fm = FileManager.default
        var pages = [repository.appendingPathComponent("README.md"), repository.appendingPathComponent("systemd/icared.service.in")]
        for folder in ["docs", "man"] {
            let root = repository.appendingPathComponent(folder)
            for case let file as String in fm.enumerator(atPath: root.path) ?? FileManager.DirectoryEnumerator()
            where file.hasSuffix(".md") || file.range(of: #"\.[0-9]$"#, options: .regularExpression) != nil {
                pages.append(root.appendingPathComponent(file))
            }
        }
        return pages
    }

    @Test func everyPageThatCountsTheWritableFoldersSaysTheUnitsNumber() throws {
        let count = try Self.unitLines(Self.writableKeys).count
        let word = try #require(count >= 1 && count <= 10 ? Self.numbers[count - 1] : nil, "the unit grants \(count) folders")
        let page = try String(contentsOf: repository.appendingPathComponent("docs/privacy.md"), encoding: .utf8)
        #expect(page.contains("it can write only the \(word) folders"), "docs/privacy.md, the one place that says it, says how many folders the unit grants (\(word))")
        var counted = 0
        for file in try Self.countingPages() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for said in Self.folderCounts(text) {
                counted += 1
                #expect(said == word || said == String(count), "\(file.path) says \(said) folders; the unit grants \(word)")
            }
        }
        #expect(counted >= 3, "the page, docs/install.md and docs/hostile.md count them")
    }

    @Test func aWrongCountIsFound() {
        #expect(Self.folderCounts("writable only in its two folders; the four writable folders; 4 folders") == ["two", "four", "4"])
        #expect(Self.folderCounts("its folders, two of them").isEmpty)
    }

    @Test func theListsOfWhatIcaredOpensAreWellFormed() throws {
        let page = try PrivacyPage.read()
        #expect(page.problems.isEmpty, "\(page.problems)")
        for (_, kind) in PrivacyPage.kinds {
            #expect(page.rows.contains { $0.kind == kind.kind && $0.program == kind.program }, "docs/privacy.md has no rows of \(kind)")
        }
        for row in page.rows {
            #expect(!row.verbs.isEmpty && row.verbs.isSubset(of: Self.verbs[row.kind] ?? []), "docs/privacy.md:\(row.line): verbs \(row.verbs.sorted())")
            for suite in Set(row.elsewhere.values) { #expect(PrivacyPage.suiteExists(suite), "docs/privacy.md:\(row.line): no suite \(suite)") }
        }
    }

    /// The words SyscallWatch and BusRecorder use for each kind.
    static let verbs: [String: Set<String>] = [
        "files": ["reads", "writes", "is refused", "watches", "checks", "runs"], "system files": ["reads", "checks"],
        "sockets": ["opens", "connects", "sends to", "binds"],
        "session bus": ["calls", "watches", "owns"], "system bus": ["calls", "watches", "owns"], "dconf": ["watches"],
    ]

    @Test func theComparisonFindsWhatThePageLeavesOutAndWhatNoRunDid() {
        let page = PrivacyPage(text: """
            ### Files icared opens
            | `~/.config/icare/config` | reads, writes | settings | watched |
            | `~/.config/kdeconnect/` | writes | lists | watched |
            | `~/.config/gone` | reads | nothing | watched |
            ### The system's files icared reads
            | `/usr/lib/` | reads | libraries | watched |
            ### Names icared calls, watches or owns on the session bus
            | `org.kde.plasmashell` | watches | Plasma | only on Plasma (`PrivacyPageTests`) |
            | `org.xfce.Xfconf` | calls, watches | XFCE | watched; calls only on XFCE (`PrivacyPageTests`) |
            | `org.example.Bad` | calls | nothing | somewhere |

            """)
        #expect(page.problems.count == 1 && page.problems[0].contains("somewhere"), "\(page.problems)")
        var record = PrivacyRecord()
        record.add("files", "~/.config/icare/config", "reads")
        record.add("files", "~/.config/icare/config", "writes")
        record.add("files", "~/.config/kdeconnect/PHONE/config.lock", "writes")
        record.add("files", "/usr/lib/x86_64-linux-gnu/libc.so.6", "reads")
        record.add("files", "~/.ssh/id_ed25519", "reads")
        record.add("session bus", "org.kde.plasmashell", "watches")
        record.add("session bus", "org.xfce.Xfconf", "watches")
        let problems = page.compare(record, programs: ["icared"]).filter { !$0.contains("somewhere") }
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.contains("`~/.ssh/id_ed25519`, which docs/privacy.md does not list") })
        #expect(problems.contains { $0.contains("`~/.config/gone` reads: no run recorded it") })
        #expect(problems.contains { $0.contains("`org.kde.plasmashell` watches is marked only elsewhere") })
    }

    /// The Flatpak section's table of permissions is flatpak/finish-args, one row each.
    @Test func theFlatpaksPermissionsAreTheManifests() throws {
        let args = try String(contentsOf: repository.appendingPathComponent("flatpak/finish-args"), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        let page = try String(contentsOf: repository.appendingPathComponent("docs/privacy.md"), encoding: .utf8)
        let section = try #require(page.components(separatedBy: "\n## ").first { $0.hasPrefix("The Flatpak") }, "a section on the Flatpak")
        let rows = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `--"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
        }
        #expect(args.count >= 10)
        #expect(Set(rows) == Set(args) && rows.count == args.count,
                "docs/privacy.md's Flatpak permissions \(Set(rows).symmetricDifference(Set(args)).sorted()) differ from flatpak/finish-args")
    }
}
