import Testing
import Foundation

/// The README and the manual hold together: every relative link and image
/// points at a file that is there, every `#anchor` at a heading, and the
/// README fits on a screen or two.
@Suite struct LinkTests {
    /// README.md, CONTRIBUTING.md and every page of docs/.
    static var documents: [URL] {
        let docs = repository.appendingPathComponent("docs")
        let pages = ((try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? [])
            .filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
        return [repository.appendingPathComponent("README.md"), repository.appendingPathComponent("CONTRIBUTING.md")] + pages
    }

    @Test func everyRelativeLinkImageAndAnchorResolves() throws {
        let files = Self.documents
        #expect(files.count >= 10, "\(files.map(\.lastPathComponent))")
        let problems = try brokenLinks(in: files)
        #expect(problems.isEmpty, "\n\(problems.joined(separator: "\n"))")
    }

    @Test func theReadmeFitsAndLinksTheManual() throws {
        let readme = try MarkdownFile(repository.appendingPathComponent("README.md"))
        let count = readme.lines.last == "" ? readme.lines.count - 1 : readme.lines.count
        #expect(count <= 160, "README.md has \(count) lines")
        let targets = Set(readme.links.map { $0.target.split(separator: "#").first.map(String.init) ?? "" })
        for page in ["docs/README.md", "docs/using.md", "docs/desktops.md", "docs/install.md", "LICENSE"] {
            #expect(targets.contains(page), "README.md does not link \(page)")
        }
        #expect(readme.links.contains { $0.isImage && $0.target.hasPrefix("docs/screenshots/gnome-") })
        #expect(readme.links.contains { $0.isImage && $0.target.hasPrefix("docs/screenshots/plasma-") })
    }

    /// Every page of the manual is reachable from its index.
    @Test func theIndexNamesEveryPage() throws {
        let index = try MarkdownFile(repository.appendingPathComponent("docs/README.md"))
        let named = Set(index.links.map { $0.target.split(separator: "#").first.map(String.init) ?? "" })
        for page in Self.documents where page.deletingLastPathComponent().lastPathComponent == "docs" {
            guard page.lastPathComponent != "README.md" else { continue }
            #expect(named.contains(page.lastPathComponent), "docs/README.md does not name \(page.lastPathComponent)")
        }
    }

    @Test func slugsFollowGitHub() {
        #expect(MarkdownFile.slug("Quick start (Debian 12 / Ubuntu)") == "quick-start-debian-12--ubuntu")
        #expect(MarkdownFile.slug("Notifications, server by server") == "notifications-server-by-server")
        #expect(MarkdownFile.slug("KDE Plasma 5.27") == "kde-plasma-527")
        #expect(MarkdownFile.slug("Time away and GNOME's own breaks") == "time-away-and-gnomes-own-breaks")
        #expect(MarkdownFile.slug("The `org.icare.Reminder` D-Bus interface") == "the-orgicarereminder-d-bus-interface")
        #expect(MarkdownFile.slug("Notifications — `org.freedesktop.Notifications`") == "notifications--orgfreedesktopnotifications")
        #expect(MarkdownFile.slug("snake_case stays") == "snake_case-stays")
    }

    /// The checker itself finds what is broken: a missing file, a missing
    /// image, a missing anchor, and an anchor in a code block that is no heading.
    @Test func aBrokenLinkIsFound() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("icare-docs-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            # Page

            ## Real heading

            ```sh
            ## not a heading
            ```

            [fine](#real-heading), [fine too](b.md#bs-part), `[code](nowhere.md)`, [web](https://example.org/x.md)
            [gone](missing.md), ![gone](pictures/missing.png), [no anchor](b.md#nothing), [code heading](#not-a-heading)

            """.write(to: folder.appendingPathComponent("a.md"), atomically: true, encoding: .utf8)
        try "# B\n\n## B's part\n".write(to: folder.appendingPathComponent("b.md"), atomically: true, encoding: .utf8)
        let problems = try brokenLinks(in: [folder.appendingPathComponent("a.md")])
        #expect(problems.count == 4, "\(problems)")
        #expect(problems.contains { $0.hasSuffix("link missing.md: no such file") }, "\(problems)")
        #expect(problems.contains { $0.hasSuffix("image pictures/missing.png: no such file") }, "\(problems)")
        #expect(problems.contains { $0.hasSuffix("link b.md#nothing: no heading with the anchor #nothing") }, "\(problems)")
        #expect(problems.contains { $0.hasSuffix("link #not-a-heading: no heading with the anchor #not-a-heading") }, "\(problems)")
    }
}
