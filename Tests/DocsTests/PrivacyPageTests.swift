import Testing
import Foundation

/// docs/privacy.md is held to icared's unit: every folder the unit lets icared write is a row of its
/// table, every row is a grant the unit makes, and the unit lets icared open only unix sockets, as the
/// page and the README say.
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
}
