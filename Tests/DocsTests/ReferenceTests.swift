import Testing
import Foundation
import TestSupport

/// Every reference leads somewhere (issue 54, item 5): a file, folder or section of the repository
/// that a comment, a script, a workflow, a page, a man page or a data file names is there.
///
/// What is read: the tracked files (`git ls-files`) under Sources, Tests, scripts, .github, .ci, docs,
/// man, data, gnome-extension, flatpak, debian, systemd, dbus, bench and completions, and README.md,
/// CONTRIBUTING.md, Package.swift, Makefile and po/README.md, code and comments alike. Not read:
/// released history (NEWS, debian/changelog), which keeps what it said then; the catalogs (po/*.po,
/// the template), whose English is read where it is written; the checkers' own tests (LinkTests.swift
/// and this file), whose samples lead nowhere on purpose; and pictures.
///
/// What is a reference, in those files' text (a Markdown link, `[words](target)`, is read as its
/// words: its target is LinkTests' to check, `brokenLinks`, here for the Markdown files LinkTests
/// does not read):
/// - a path that ends in `.md`, with or without folders (`docs/install.md`, `hostile.md`, `../po/README.md`);
/// - a path whose first folder is one of the repository's top-level folders (`scripts/po`, `Tests/TestSupport`,
///   `docs/screenshots/`, `flatpak/finish-args`);
/// - not when the path is part of a longer one, that is right after one of `/ ~ $ % . @ :` or a letter or
///   digit (`~/.config/icare/`, `/usr/share/man/`, `$out/RELEASE-NOTES.md`, a URL), and not in a C `#include`.
///
/// Where it leads: a path with folders from the top of the repository, else from the file's own folder
/// (a path starting `../` only from there); a bare `NAME.md` from the file's folder, the top, or docs/.
/// It must be a tracked file or a folder holding one. A trailing full stop or ellipsis (`bench/...`) is
/// not part of it. A `*` matches as in a shell glob, `{a,b}` is each of its words, a `{name}` alone
/// is a placeholder matched as `*` (`po/{lang}.po`), and a path ending in `-` or `_` is the start of
/// some tracked file's path (`docs/screenshots/app-{light,dark}-{en,nl}.png`, `docs/screenshots/plasma-*`).
///
/// What is not the repository's, though it is written the same way: a path .gitignore names (the build's
/// outputs: `debian/icare`, `build/…`), and the few that `elsewhere` lists, each with where it is
/// (another project's tree, a test's scratch home, a file a script makes), with what is in them.
///
/// A section: a Markdown file's path followed by a quoted heading, `docs/NAME.md, "Section"` or
/// `NAME.md "Section"` (the quote may go on over the next lines of a comment), leads to a heading of that
/// file (`#`…`######`, outside code) whose text is the quote, or begins with it up to the end of a word
/// (`"After a change"` for `## After a change: the written order`): letter case, backquotes and runs of
/// spaces aside. An anchor, `docs/NAME.md#some-heading`, leads to a heading with GitHub's anchor.
@Suite struct ReferenceTests {
    /// Paths written like the repository's that are somewhere else, each with where.
    static let elsewhere: [(path: String, whose: String)] = [
        ("data/gnome-shell", "GNOME Shell's folder in the data folder (XDG_DATA_HOME, named data) of a test's scratch home"),
        ("data/dbus-interfaces", "gnome-shell's source tree"),
        ("scripts/access", "WirePlumber's source tree"),
        ("RELEASE-NOTES.md", "a file scripts/release writes into its output folder, build/release/"),
        ("data/org.icare.Reminder.metainfo.xml", "the metainfo scripts/po makes from data/org.icare.Reminder.metainfo.xml.in in a scratch folder"),
        ("docs/screenshots/status-item-xfce4-panel.png", "where XfcePanelTests leaves it while scripts/screenshots runs, which moves it to docs/"),
    ]

    /// The tracked files read for references.
    static func scanned(_ tracked: [String]) -> [String] {
        let folders = ["Sources/", "Tests/", "scripts/", ".github/", ".ci/", "docs/", "man/", "data/", "gnome-extension/",
                       "flatpak/", "debian/", "systemd/", "dbus/", "bench/", "completions/"]
        let files = ["README.md", "CONTRIBUTING.md", "Package.swift", "Makefile", "po/README.md"]
        let notRead = ["debian/changelog", "Tests/DocsTests/LinkTests.swift", "Tests/DocsTests/ReferenceTests.swift"]
        let pictures = [".png", ".jpg", ".svg", ".ico"]
        return tracked.filter { path in
            (files.contains(path) || folders.contains { path.hasPrefix($0) }) && !notRead.contains(path)
                && !pictures.contains { path.hasSuffix($0) }
        }
    }

    @Test func everyReferenceLeadsSomewhere() throws {
        let tracked = try trackedFiles()
        let files = Self.scanned(tracked)
        #expect(files.count > 400, "\(files.count) files")
        let check = ReferenceCheck(root: repository, tracked: tracked, elsewhere: Self.elsewhere.map(\.path),
                                       ignored: gitIgnored)
        let result = try check.run(files)
        #expect(result.references > 500 && result.sections > 40, "\(result.references) references, \(result.sections) sections")
        #expect(result.problems.isEmpty, "\n\(result.problems.joined(separator: "\n"))")
        // The Markdown files LinkTests does not read: their links.
        let documents = Set(LinkTests.documents.map(\.path))
        let markdown = files.filter { $0.hasSuffix(".md") }.map { repository.appendingPathComponent($0) }.filter { !documents.contains($0.path) }
        #expect(markdown.count >= 3, "\(markdown.map(\.path))")
        let links = try brokenLinks(in: markdown)
        #expect(links.isEmpty, "\n\(links.joined(separator: "\n"))")
    }

    /// The check finds each way a reference leads nowhere, and lets through what leads somewhere or is
    /// no reference.
    @Test func aReferenceThatLeadsNowhereIsFound() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("icare-refs-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files: [String: String] = [
            "docs/page.md": "# Page\n\n## After a change: the written order\n\n```sh\n## Not a heading\n```\n\nSee [other.md](other.md), \"Its part\", and other.md, \"Gone part\".\n",
            "docs/other.md": "# Other\n\n## Its part\n",
            "scripts/run": "#!/bin/sh\n# Runs scripts/tool (docs/page.md, \"After a\n# change\"), not scripts/gone; ~/.config/scripts/x and $dir/NOTES.md are not ours.\nscripts/tool --x\n",
            "scripts/tool": "#!/bin/sh\n",
            "Sources/A/a.swift": """
                /// docs/page.md, "After a change" and docs/page.md "Not a heading"; page.md "Before";
                /// docs/page.md#after-a-change-the-written-order, docs/page.md#before, missing.md, docs/nothing.md,
                /// Sources/A/, Sources/B/b.swift, docs/screenshots/shot-{one,two}.png, docs/screenshots/shot-*,
                /// build/out.md, https://example.org/docs/x.md, /usr/share/doc/icare/README.md.
                /// scripts/..., docs/{name}.md, ./scripts/tool, scripts/vendor/x.lua, docs/{name}.txt
                #include <scripts/header.h>
                let x = "docs/other.md"

                """,
            "docs/screenshots/shot-one.png": "",
        ]
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let check = ReferenceCheck(root: folder, tracked: Array(files.keys), elsewhere: ["scripts/vendor"],
                                       ignored: { paths in Set(paths.filter { $0.hasPrefix("build/") }) })
        let result = try check.run(["docs/page.md", "scripts/run", "Sources/A/a.swift"])
        let expected = [
            "docs/page.md:9: other.md, \"Gone part\": docs/other.md has no heading \"Gone part\"",
            "scripts/run:3: scripts/gone: no such file or folder",
            "Sources/A/a.swift:1: docs/page.md, \"Not a heading\": docs/page.md has no heading \"Not a heading\"",
            "Sources/A/a.swift:1: page.md, \"Before\": docs/page.md has no heading \"Before\"",
            "Sources/A/a.swift:2: docs/page.md#before: docs/page.md has no heading with the anchor #before",
            "Sources/A/a.swift:2: missing.md: no such file or folder",
            "Sources/A/a.swift:2: docs/nothing.md: no such file or folder",
            "Sources/A/a.swift:3: Sources/B/b.swift: no such file or folder",
            "Sources/A/a.swift:3: docs/screenshots/shot-{one,two}.png: no such file or folder",
            "Sources/A/a.swift:5: docs/{name}.txt: no such file or folder",
        ]
        #expect(result.problems == expected, "\n\(result.problems.joined(separator: "\n"))")
        // Two in docs/page.md, one in scripts/run, three on the first line of a.swift and two anchors on its second.
        #expect(result.sections == 8, "\(result.sections) sections")
    }
}

/// The paths of `paths` that .gitignore names, or that lie in a folder it names (`git check-ignore`).
func gitIgnored(_ paths: [String]) throws -> Set<String> {
    guard !paths.isEmpty else { return [] }
    let asked = paths.flatMap { [$0, $0.hasSuffix("/") ? $0 : $0 + "/"] }
    let result = try Subprocess.run(["git", "-C", repository.path, "check-ignore", "--no-index", "--stdin"],
                                    stdin: asked.joined(separator: "\n") + "\n")
    // 0: some are ignored; 1: none is.
    guard result.status <= 1 else { throw HarnessError("git check-ignore: \(result)") }
    let named = Set(result.stdout.split(separator: "\n").map { String($0) })
    return Set(paths.filter { named.contains($0) || named.contains($0.hasSuffix("/") ? $0 : $0 + "/") })
}

/// Reads references in a repository's files and finds those that lead nowhere (ReferenceTests' rules).
struct ReferenceCheck {
    let root: URL
    let tracked: Set<String>
    /// Every folder holding a tracked file, with its own folders.
    let folders: Set<String>
    let topFolders: Set<String>
    let elsewhere: [String]
    let ignored: ([String]) throws -> Set<String>

    /// A path written in a file, with the section or anchor cited after it.
    struct Reference {
        let file: String
        let line: Int
        let path: String
        var section: String? = nil
        var anchor: String? = nil
        /// The reference as written, for messages.
        var written: String {
            if let section { return "\(path), \"\(section)\"" }
            if let anchor { return "\(path)#\(anchor)" }
            return path
        }
    }

    struct Result {
        var references = 0
        var sections = 0
        var problems: [String] = []
    }

    init(root: URL, tracked: [String], elsewhere: [String], ignored: @escaping ([String]) throws -> Set<String>) {
        self.root = root
        self.tracked = Set(tracked)
        var folders: Set<String> = []
        for path in tracked {
            var parts = path.split(separator: "/").dropLast()
            while !parts.isEmpty {
                folders.insert(parts.joined(separator: "/"))
                parts = parts.dropLast()
            }
        }
        self.folders = folders
        topFolders = Set(folders.filter { !$0.contains("/") })
        self.elsewhere = elsewhere
        self.ignored = ignored
    }

    /// A path-like word: letters, digits, `_ . + * - /` and `{a,b}` lists, not right after a longer path's
    /// characters; `#include` lines are left out before.
    static let word = try! NSRegularExpression(
        pattern: #"(?<![A-Za-z0-9_.~$%@:/\\*+{}-])((?:\.\.?/)*(?:[A-Za-z0-9_.+*-]|\{[A-Za-z0-9_.,*-]*\})(?:[A-Za-z0-9_.+*/-]|\{[A-Za-z0-9_.,*-]*\})*)"#)
    /// What may follow a Markdown file's path: an anchor, or a quoted section.
    static let anchor = try! NSRegularExpression(pattern: #"^#([A-Za-z0-9_-]+)"#)
    static let sectionStart = try! NSRegularExpression(pattern: #"^(?:,\s*|\s+)["“]"#)
    /// A comment's marker at the start of a line that goes on with a quote.
    static let commentMarker = try! NSRegularExpression(pattern: #"^\s*(?:///?|#+|\*|--|;+|\.\\")?\s*"#)

    /// The references in `file` (a path from the root).
    func references(in file: String) throws -> [Reference] {
        guard let text = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) else { return [] }
        let markdown = file.hasSuffix(".md")
        let lines = text.components(separatedBy: "\n").map { markdown ? MarkdownFile.linkWords($0) : $0 }
        var found: [Reference] = []
        for (index, line) in lines.enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("#include") { continue }
            let ns = line as NSString
            for match in Self.word.matches(in: line, range: NSRange(location: 0, length: ns.length)) {
                var path = ns.substring(with: match.range(at: 1))
                if path.hasSuffix("...") { path.removeLast(3) }
                while path.hasSuffix("."), !path.hasSuffix("/."), !path.hasSuffix("..") { path.removeLast() }
                guard isReference(path) else { continue }
                var reference = Reference(file: file, line: index + 1, path: path)
                let rest = ns.substring(from: match.range.location + path.utf16.count)
                if path.hasSuffix(".md") {
                    reference.anchor = Self.firstGroup(Self.anchor, in: rest)
                    if reference.anchor == nil { reference.section = Self.section(after: rest, following: lines[(index + 1)...]) }
                }
                found.append(reference)
            }
        }
        return found
    }

    /// Whether a path-like word is a reference: a `.md` path, or a path in one of the top-level folders.
    func isReference(_ path: String) -> Bool {
        if path.hasSuffix(".md") && path.count > 3 { return true }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).drop { $0 == "." || $0 == ".." }
        return parts.count >= 2 && topFolders.contains(String(parts.first!))
    }

    static func firstGroup(_ regex: NSRegularExpression, in text: String) -> String? {
        let ns = text as NSString
        guard let match = regex.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else { return nil }
        return ns.substring(with: match.range(at: 1))
    }

    /// The quoted section that starts `rest`, if it does, read on over the next lines (a comment's
    /// markers dropped) up to its closing quote; nil when no quote is closed within three lines.
    static func section(after rest: String, following: ArraySlice<String>) -> String? {
        let ns = rest as NSString
        guard let start = sectionStart.firstMatch(in: rest, range: NSRange(location: 0, length: ns.length)) else { return nil }
        var text = ns.substring(from: start.range.length)
        var next = following.makeIterator()
        for _ in 0...3 {
            if let close = text.firstIndex(where: { $0 == "\"" || $0 == "”" }) {
                let quoted = String(text[..<close])
                return quoted.hasPrefix("$") ? nil : quoted  // a shell word, not a section
            }
            guard let line = next.next() else { return nil }
            let lineNS = line as NSString
            let marker = commentMarker.firstMatch(in: line, range: NSRange(location: 0, length: lineNS.length))
            text += " " + lineNS.substring(from: marker?.range.length ?? 0)
        }
        return nil
    }

    /// `a/./b/../c` → `a/c`; nil when it climbs above the root.
    static func normalized(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// `a{b,c}d{e,f}` → `abde`, `abdf`, `acde`, `acdf`; `a{name}b` (a placeholder) → `a*b`.
    static func expandingBraces(_ path: String) -> [String] {
        guard let open = path.firstIndex(of: "{"), let close = path[open...].firstIndex(of: "}") else { return [path] }
        let head = path[..<open], tail = String(path[path.index(after: close)...])
        let words = path[path.index(after: open)..<close].split(separator: ",", omittingEmptySubsequences: false)
        return (words.count == 1 ? ["*"] : words).flatMap { word in expandingBraces(head + word + tail) }
    }

    /// Whether `path` (from the root) is a tracked file, a folder holding one, or (a glob, a name's start) matches one.
    func exists(_ path: String) -> Bool {
        Self.expandingBraces(path).allSatisfy { one in
            let plain = one.hasSuffix("/") ? String(one.dropLast()) : one
            if plain.contains("*") { return tracked.contains { fnmatch(plain, $0, 0) == 0 } }
            if plain.hasSuffix("-") || plain.hasSuffix("_") { return tracked.contains { $0.hasPrefix(plain) } }
            return tracked.contains(plain) || folders.contains(plain)
        }
    }

    /// The paths from the root a reference in `file` may be read as, the likeliest first.
    func readings(of path: String, in file: String) -> [String] {
        let folder = file.split(separator: "/").dropLast().joined(separator: "/")
        let fromFolder = Self.normalized(folder.isEmpty ? path : folder + "/" + path)
        if path.hasPrefix("../") { return [fromFolder].compactMap { $0 } }
        if path.contains("/") { return [Self.normalized(path), fromFolder].compactMap { $0 } }
        return [fromFolder, path, "docs/" + path].compactMap { $0 }
    }

    /// `text` as it is compared: links as their words, no backquotes or `*`, lower case, one space between words.
    static func comparable(_ text: String) -> String {
        MarkdownFile.linkWords(text).filter { $0 != "`" && $0 != "*" }.lowercased()
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Whether `section` names one of `headings`: the whole text, or its start up to a word's end.
    static func names(_ section: String, _ headings: [String]) -> Bool {
        var cited = comparable(section)
        while let last = cited.last, ".,;:".contains(last) { cited.removeLast() }
        guard !cited.isEmpty else { return false }
        return headings.map(comparable).contains { heading in
            guard heading.hasPrefix(cited) else { return false }
            let next = heading.dropFirst(cited.count).first
            return next.map { !$0.isLetter && !$0.isNumber } ?? true
        }
    }

    /// Whether `path` is one of `elsewhere`'s, or in one of them.
    func isElsewhere(_ path: String) -> Bool {
        elsewhere.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }

    /// Reads `files` (paths from the root) and says what leads nowhere, one sentence each.
    func run(_ files: [String]) throws -> Result {
        var result = Result()
        var unresolved: [(Reference, String)] = []  // and the path from the root it was read as
        var pages: [String: MarkdownFile] = [:]
        func page(_ path: String) throws -> MarkdownFile {
            if let known = pages[path] { return known }
            let read = try MarkdownFile(root.appendingPathComponent(path))
            pages[path] = read
            return read
        }
        var findings: [(Reference, String)] = []
        for file in files {
            for reference in try references(in: file) {
                result.references += 1
                let readings = readings(of: reference.path, in: file)
                guard let found = readings.first(where: exists) else {
                    unresolved.append((reference, readings.first ?? reference.path))
                    continue
                }
                if (reference.section != nil || reference.anchor != nil) && !tracked.contains(found) {
                    findings.append((reference, "\(found) is no Markdown file"))
                } else if let section = reference.section {
                    result.sections += 1
                    if !Self.names(section, try page(found).headings) {
                        findings.append((reference, "\(found) has no heading \"\(section)\""))
                    }
                } else if let anchor = reference.anchor {
                    result.sections += 1
                    if !(try page(found).anchors.contains(anchor)) {
                        findings.append((reference, "\(found) has no heading with the anchor #\(anchor)"))
                    }
                }
            }
        }
        let ours = unresolved.filter { reference, path in !isElsewhere(Self.normalized(reference.path) ?? reference.path) && !isElsewhere(path) }
        let ignoredPaths = try ignored(ours.map(\.1))
        for (reference, path) in ours where !ignoredPaths.contains(path) {
            findings.append((Reference(file: reference.file, line: reference.line, path: reference.path), "no such file or folder"))
        }
        // In the order of the files, then of their lines.
        let order = Dictionary(files.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let sorted = findings.enumerated().sorted { a, b in
            (order[a.element.0.file] ?? 0, a.element.0.line, a.offset) < (order[b.element.0.file] ?? 0, b.element.0.line, b.offset)
        }
        result.problems = sorted.map { "\($0.element.0.file):\($0.element.0.line): \($0.element.0.written): \($0.element.1)" }
        return result
    }
}
