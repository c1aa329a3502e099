import Testing
import Foundation
import ICareCLI

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
}
