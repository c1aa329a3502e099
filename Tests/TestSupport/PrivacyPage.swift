import Foundation

/// docs/privacy.md's lists, as a test reads them: under each `### ` heading of `kinds`, a table whose
/// rows are `| \`ITEM\` | VERBS | what for | WHERE |`: ITEM a path (one ending in `/` stands for all
/// under it), a socket, a bus name or a dconf folder; VERBS the words of `PrivacyRecord`, comma-separated;
/// WHERE `watched` (the program's watching test records it here: PrivacyWatchTests, AppPrivacyWatchTests,
/// FlatpakSandboxTests) or `only on DESKTOP (\`Suite\`)` (done where that desktop runs, as that test suite
/// shows, not in the watched session; also `only with …`, `only in …`), or `watched; VERB only on DESKTOP
/// (\`Suite\`)` for a verb of the row done only there.
public struct PrivacyPage: Sendable {
    /// The page's headings and the record's kinds, for icared (`icared`), the app (`icare`) and the Flatpak's
    /// icared (`icared in the Flatpak`).
    public static let kinds: [String: (program: String, kind: String)] = [
        "### Files icared opens": ("icared", "files"),
        "### The system's files icared reads": ("icared", "system files"),
        "### Sockets icared opens": ("icared", "sockets"),
        "### Names icared calls, watches or owns on the session bus": ("icared", "session bus"),
        "### Names icared calls or watches on the system bus": ("icared", "system bus"),
        "### dconf folders icared follows": ("icared", "dconf"),
        "### Files the app writes": ("icare", "files"),
        "### Sockets the app connects to": ("icare", "sockets"),
        "### Names the app calls, watches or owns on the session bus": ("icare", "session bus"),
        "### Files the Flatpak's icared opens": ("icared in the Flatpak", "files"),
        "### Sockets the Flatpak's icared opens": ("icared in the Flatpak", "sockets"),
        "### Names the Flatpak's icared calls, watches or owns on the session bus": ("icared in the Flatpak", "session bus"),
        "### dconf folders the Flatpak's icared follows": ("icared in the Flatpak", "dconf"),
    ]

    public struct Row: Sendable {
        public let program: String
        public let kind: String
        public let item: String
        public let verbs: Set<String>
        /// The verbs done only elsewhere, each with the suite that shows it.
        public let elsewhere: [String: String]
        public let line: Int
        /// The verbs the watched session must record.
        public var here: Set<String> { verbs.subtracting(elsewhere.keys) }
    }

    public let rows: [Row]
    public let problems: [String]

    public static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/privacy.md").path

    public static func read() throws -> PrivacyPage { PrivacyPage(text: try String(contentsOfFile: path, encoding: .utf8)) }

    public init(text: String) {
        var rows: [Row] = [], problems: [String] = [], current: (program: String, kind: String)?
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("#") { current = Self.kinds[String(line)]; continue }
            guard let current, line.hasPrefix("| `") else { continue }
            let cells = line.dropFirst(2).dropLast(line.hasSuffix("|") ? 1 : 0).components(separatedBy: " | ").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count == 4, cells[0].hasPrefix("`"), cells[0].hasSuffix("`"), cells[0].count > 2 else {
                problems.append("docs/privacy.md:\(n + 1): a row of \(current.kind) needs four cells, the first in backquotes: \(line)")
                continue
            }
            let verbs = Set(cells[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            guard let elsewhere = Self.elsewhere(cells[3], verbs: verbs) else {
                problems.append("docs/privacy.md:\(n + 1): the last cell is `watched`, `only on DESKTOP (`Suite`)` or `watched; VERB only on DESKTOP (`Suite`)`: \(cells[3])")
                continue
            }
            rows.append(Row(program: current.program, kind: current.kind, item: String(cells[0].dropFirst().dropLast()),
                            verbs: verbs, elsewhere: elsewhere, line: n + 1))
        }
        self.rows = rows
        self.problems = problems
    }

    /// The verbs a WHERE cell says are done only elsewhere, with their suites; nil for a cell of another form.
    static func elsewhere(_ cell: String, verbs: Set<String>) -> [String: String]? {
        func suite(_ part: String) -> String? {
            let inside = part.components(separatedBy: "`")
            return inside.count == 3 && !inside[1].isEmpty && part.hasSuffix("`)") ? inside[1] : nil
        }
        if cell.hasPrefix("only ") {
            guard let name = suite(cell) else { return nil }
            return Dictionary(uniqueKeysWithValues: verbs.map { ($0, name) })
        }
        let parts = cell.components(separatedBy: "; ")
        guard parts.first == "watched" else { return nil }
        var out: [String: String] = [:]
        for part in parts.dropFirst() {
            guard let only = part.range(of: " only "), let name = suite(part) else { return nil }
            for verb in part[..<only.lowerBound].components(separatedBy: " and ") {
                guard verbs.contains(verb) else { return nil }
                out[verb] = name
            }
        }
        return out
    }

    /// The row that lists `item` of `kind`: the same item, or for files the longest folder (`…/`) at or above it,
    /// among the program's files and the system's files.
    public func row(for item: String, kind: String, program: String) -> Row? {
        let candidates = rows.filter { $0.program == program && ($0.kind == kind || (kind == "files" && $0.kind == "system files")) }
        if let exact = candidates.first(where: { $0.item == item }) { return exact }
        guard kind == "files" else { return nil }
        // A folder's row (`…/`) holds the folder itself too (made by the program).
        return candidates.filter { $0.item.hasSuffix("/") && (item + "/").hasPrefix($0.item) }.max { $0.item.count < $1.item.count }
    }

    /// Where the page and `record` (of `programs`) disagree, one sentence each: what was done and is not
    /// listed (or listed without that verb), and what is listed as watched and was not done, and a desktop
    /// mark on what was done here.
    public func compare(_ record: PrivacyRecord, programs: Set<String>) -> [String] {
        var out = problems
        var used: [Int: Set<String>] = [:]   // row line → verbs seen
        for program in programs {
            for (kind, items) in record.kinds {
                for (item, verbs) in items.sorted(by: { $0.key < $1.key }) {
                    guard let row = row(for: item, kind: kind, program: program) else {
                        out.append("\(program) \(verbs.sorted().joined(separator: ", ")) \(kind) `\(item)`, which docs/privacy.md does not list")
                        continue
                    }
                    used[row.line, default: []].formUnion(verbs)
                    let missing = verbs.subtracting(row.verbs)
                    if !missing.isEmpty {
                        out.append("\(program) \(missing.sorted().joined(separator: ", ")) `\(item)`; docs/privacy.md:\(row.line) says only \(row.verbs.sorted().joined(separator: ", "))")
                    }
                }
            }
        }
        for row in rows where programs.contains(row.program) {
            let seen = used[row.line] ?? []
            for (verb, suite) in row.elsewhere.sorted(by: { $0.key < $1.key }) {
                if seen.contains(verb) { out.append("docs/privacy.md:\(row.line): `\(row.item)` \(verb) is marked only elsewhere (\(suite)) but was recorded here") }
                if !Self.suiteExists(suite) { out.append("docs/privacy.md:\(row.line): no test suite \(suite) under Tests/") }
            }
            if !row.here.isSubset(of: seen) {
                out.append("docs/privacy.md:\(row.line): `\(row.item)` \(row.here.subtracting(seen).sorted().joined(separator: ", ")): no run recorded it")
            }
        }
        return out
    }

    /// Whether a `struct NAME` or `class NAME` is declared under Tests/.
    public static func suiteExists(_ name: String) -> Bool {
        let tests = URL(fileURLWithPath: path).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tests")
        guard let files = FileManager.default.enumerator(atPath: tests.path) else { return false }
        for case let file as String in files where file.hasSuffix(".swift") {
            guard let text = try? String(contentsOfFile: tests.appendingPathComponent(file).path, encoding: .utf8) else { continue }
            if text.contains("struct \(name) ") || text.contains("struct \(name):") || text.contains("class \(name) ")
                || text.contains("class \(name):") { return true }
        }
        return false
    }
}
