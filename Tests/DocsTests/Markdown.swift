import Foundation

/// The repository this test file lives in.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The repository's tracked files (`git ls-files`), as paths from its top.
func trackedFiles() throws -> [String] {
    let git = Process()
    git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
    git.arguments = ["-C", repository.path, "ls-files"]
    let out = Pipe()
    git.standardOutput = out
    try git.run()
    let listed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    git.waitUntilExit()
    return listed.split(separator: "\n").map(String.init)
}

/// A Markdown file, read the way GitHub renders what matters here: its
/// headings (as anchors) and its links and images, outside code.
struct MarkdownFile {
    let url: URL
    let lines: [String]

    init(_ url: URL) throws {
        self.url = url
        lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
    }

    /// Each line with whether it is inside a fenced code block (the fences count as inside).
    var linesWithFences: [(line: String, number: Int, inCode: Bool)] {
        var inCode = false
        return lines.enumerated().map { index, line in
            let fence = line.trimmingCharacters(in: .whitespaces).hasPrefix("```")
            defer { if fence { inCode.toggle() } }
            return (line, index + 1, inCode || fence)
        }
    }

    /// The headings' texts as written (`## Some heading` → `Some heading`), outside code, in order.
    var headings: [String] {
        linesWithFences.compactMap { $0.inCode ? nil : Self.headingText($0.line) }
    }

    /// The anchors GitHub gives the headings, duplicates numbered (`-1`, `-2`).
    var anchors: Set<String> {
        var seen: [String: Int] = [:]
        var result: Set<String> = []
        for text in headings {
            let slug = Self.slug(text)
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            result.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return result
    }

    /// `## Some heading` → `Some heading`; nil for a line that is no ATX heading.
    static func headingText(_ line: String) -> String? {
        let hashes = line.prefix { $0 == "#" }
        guard (1...6).contains(hashes.count), line.dropFirst(hashes.count).first == " " else { return nil }
        return line.dropFirst(hashes.count).trimmingCharacters(in: .whitespaces)
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped (letters,
    /// digits, `_`, `-` and spaces kept), each space a `-`.
    static func slug(_ heading: String) -> String {
        let kept = linkWords(heading).lowercased().unicodeScalars.filter { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber,
                 .connectorPunctuation:
                return true
            default:
                return scalar == " " || scalar == "-"
            }
        }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: kept)
        return String(scalars).replacingOccurrences(of: " ", with: "-")
    }

    /// The text with each link and image, `[words](target)`, as its words only.
    static func linkWords(_ line: String) -> String {
        var text = line
        while let link = text.range(of: #"!?\[([^\]]*)\]\([^)]*\)"#, options: .regularExpression) {
            let words = text[link].drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }
            text.replaceSubrange(link, with: words)
        }
        return text
    }

    /// A link or an image: where it points, and on which line.
    struct Link {
        let target: String
        let line: Int
        let isImage: Bool
    }

    /// Every inline link and image outside code (code spans inside a link's text count as text).
    var links: [Link] {
        var result: [Link] = []
        for entry in linesWithFences where !entry.inCode {
            let line = Self.blankingCodeSpans(entry.line)
            let pattern = try! NSRegularExpression(pattern: #"(!?)\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)"#)
            let ns = line as NSString
            for match in pattern.matches(in: line, range: NSRange(location: 0, length: ns.length)) {
                result.append(Link(target: ns.substring(with: match.range(at: 2)), line: entry.number,
                                   isImage: match.range(at: 1).length > 0))
            }
        }
        return result
    }

    /// The line with each code span turned into `x`s, except a span that is a link's whole text.
    static func blankingCodeSpans(_ line: String) -> String {
        var characters = Array(line)
        var index = 0
        while index < characters.count {
            guard characters[index] == "`", let close = characters[(index + 1)...].firstIndex(of: "`") else {
                index += 1
                continue
            }
            let isLinkText = index > 0 && characters[index - 1] == "[" && close + 1 < characters.count && characters[close + 1] == "]"
            if !isLinkText { for i in index...close { characters[i] = "x" } }
            index = close + 1
        }
        return String(characters)
    }
}

/// What is wrong with the links of some Markdown files: one sentence each.
func brokenLinks(in files: [URL]) throws -> [String] {
    var anchorCache: [String: Set<String>] = [:]
    func anchors(of url: URL) throws -> Set<String> {
        if let known = anchorCache[url.path] { return known }
        let found = try MarkdownFile(url).anchors
        anchorCache[url.path] = found
        return found
    }
    var problems: [String] = []
    for url in files {
        let file = try MarkdownFile(url)
        let name = url.path.replacingOccurrences(of: repository.path + "/", with: "")
        for link in file.links {
            if link.target.contains("://") || link.target.hasPrefix("mailto:") { continue }
            let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let path = parts[0].removingPercentEncoding ?? parts[0]
            let destination = path.isEmpty ? url : URL(fileURLWithPath: path, relativeTo: url.deletingLastPathComponent()).standardizedFileURL
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: destination.path, isDirectory: &isFolder) else {
                problems.append("\(name):\(link.line): \(link.isImage ? "image" : "link") \(link.target): no such file")
                continue
            }
            guard parts.count == 2 else { continue }
            let anchor = parts[1]
            guard destination.pathExtension == "md", !isFolder.boolValue else {
                problems.append("\(name):\(link.line): link \(link.target): an anchor into a file that is not Markdown")
                continue
            }
            if !(try anchors(of: destination)).contains(anchor) {
                problems.append("\(name):\(link.line): link \(link.target): no heading with the anchor #\(anchor)")
            }
        }
    }
    return problems
}
