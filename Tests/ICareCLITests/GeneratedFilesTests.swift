import Testing
import Foundation
import ICareCLI
import TestSupport

/// The man page and completions that `make install` installs are generated
/// from the command table; the checked-in copies must not drift from it
/// (regenerate them with scripts/regenerate).
@Suite struct GeneratedFilesTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func file(_ path: String) throws -> String {
        try String(contentsOf: Self.repo.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func manPageMatchesTheCommandTable() throws {
        #expect(try file("man/icarectl.1") == ManPage.render(), "man/icarectl.1 is stale: run scripts/regenerate")
    }

    @Test(arguments: [(Shell.bash, "completions/icarectl.bash"), (.zsh, "completions/_icarectl"), (.fish, "completions/icarectl.fish")])
    func completionsMatchTheCommandTable(shell: Shell, path: String) throws {
        #expect(try file(path) == Completions.script(for: shell), "\(path) is stale: run scripts/regenerate")
    }

    /// The man page and its translations, one for each language of po/LINGUAS (a closure inside @Test's
    /// arguments crashes Debian 13's Swift 6.0.3).
    static let manPages = ["man/icarectl.1"] + Catalogs.languages.map { "man/\($0)/icarectl.1" }

    /// The man page, in each language, reads at 80 columns: man renders it
    /// with no groff warning (lintian reports those as `groff-message`) and
    /// no line wider than 80, the JSON section included.
    @Test(arguments: manPages)
    func manPageReadsAtEightyColumns(path: String) throws {
        let page = Self.repo.appendingPathComponent(path).path
        let man = try Subprocess.which("man")
        let env = ["LC_ALL": "C.UTF-8", "MANWIDTH": "80", "MAN_KEEP_FORMATTING": "", "MANROFFSEQ": ""]
        let checked = try Subprocess.run([man, "--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", page], environment: env)
        #expect(checked.status == 0 && checked.stderr.isEmpty, "groff warns about \(path): \(checked.stderr)")
        let shown = try Subprocess.run([man, "-l", page], environment: env)
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.stdout.contains(#""next_break_us":N"#), "the JSON section is missing from \(path)")
        // Columns, not characters: a Chinese or Japanese character takes two.
        func columns(_ line: Substring) -> Int { line.unicodeScalars.reduce(0) { $0 + (ManPage.isWide($1) ? 2 : 1) } }
        let wide = shown.stdout.split(separator: "\n").filter { columns($0) > 80 }.map(String.init)
        #expect(wide.isEmpty, "lines wider than 80 columns in \(path): \(wide)")
    }
}
