import Testing
import Foundation

/// The rule's distance is worded one way in English, "20 feet (6 m)", and one way in Dutch, "zo’n 6
/// meter", everywhere a person reads it: the service's, icarectl's and the app's texts, the Shell
/// extension, the catalogs, the man pages, the desktop entry and metainfo, the config template, the
/// D-Bus interface, the package's description and the docs. Released history (NEWS, the changelog,
/// and the catalogs' copies of NEWS's entries) keeps what it said then.
@Suite struct WordingTests {
    /// Other ways of saying the distance, each with what it is.
    static let variants: [(pattern: String, what: String)] = [
        (#"\b20 ft\b"#, "'20 ft'"),
        (#"\babout 6 m\b"#, "'about 6 m'"),
        (#"\b(about|around|roughly) 20 feet"#, "'about 20 feet': the distance needs no hedge"),
        (#"(?<!\()\b6 m away"#, "'6 m away' without '20 feet ('"),
        (#"\b20 feet(?! \(6 m\))"#, "'20 feet' without ' (6 m)'"),
        (#"\bsix met(er|re)"#, "'six metres'"),
        (#"\b6 metres?\b"#, "'6 metres'"),
        (#"\b20 voet"#, "'20 voet'"),
        (#"(?<!zo’n )\b6 meter"#, "'6 meter' without 'zo’n '"),
        (#"\bzes meter"#, "'zes meter'"),
    ]

    /// The variants only Dutch could say.
    static let dutchVariants: Set<String> = [#"\b20 voet"#, #"(?<!zo’n )\b6 meter"#, #"\bzes meter"#]

    /// The files a person reads, from git's list of tracked files.
    static func files() throws -> [String] {
        try trackedFiles().filter { path in
            (path.hasPrefix("Sources/") && path.hasSuffix(".swift")) || path.hasPrefix("man/") || (path.hasPrefix("po/") && !path.hasPrefix("po/glossary/"))
                || (path.hasPrefix("data/") && path.hasSuffix(".in")) || (path.hasPrefix("gnome-extension/") && path.hasSuffix(".js"))
                || (path.hasPrefix("docs/") && path.hasSuffix(".md")) || path.hasPrefix("dbus/")
                || ["README.md", "CONTRIBUTING.md", "debian/control"].contains(path)
        }
    }

    /// Whether `file` is read in English or Dutch: the other languages' catalogs and man pages say the
    /// distance their own way, held to one wording by their glossary (scripts/po_glossary.py), and
    /// German's "6 Meter" is no Dutch variant.
    static func isDutchOrEnglish(_ file: String) -> Bool {
        guard file.hasPrefix("po/") && file.hasSuffix(".po") || file.hasPrefix("man/") && file.split(separator: "/").count == 3 else { return true }
        return file == "po/nl.po" || file.hasPrefix("man/nl/")
    }

    /// What `text` says other than the two wordings, as "file: what: …context…"; the Dutch ones only
    /// where `dutch` (a file in English or Dutch).
    static func variants(in text: String, file: String, dutch: Bool = true) -> [String] {
        // Lines wrap (man pages, catalogs): the words are read across them.
        let flat = text.replacingOccurrences(of: "\"\n\"", with: "").replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        var found: [String] = []
        for (pattern, what) in variants where dutch || !Self.dutchVariants.contains(pattern) {
            let regex = try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
            for m in regex.matches(in: flat, range: NSRange(flat.startIndex..., in: flat)) {
                let r = Range(m.range, in: flat)!
                let start: String.Index = flat.index(r.lowerBound, offsetBy: -30, limitedBy: flat.startIndex) ?? flat.startIndex
                let end: String.Index = flat.index(r.upperBound, offsetBy: 30, limitedBy: flat.endIndex) ?? flat.endIndex
                found.append("\(file): \(what): …\(String(flat[start..<end]))…")
            }
        }
        return found
    }

    /// A catalog without the entries that translate NEWS (released history) and without obsolete ones.
    static func withoutNews(_ catalog: String, news: String) -> String {
        let flatNews = news.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        return catalog.components(separatedBy: "\n\n").filter { entry in
            // An obsolete entry (#~) is kept for translators, never shown.
            if entry.split(separator: "\n").allSatisfy({ $0.hasPrefix("#") }) { return false }
            // The msgid: its line and the quoted lines that follow it.
            let lines = entry.split(separator: "\n")
            let start = lines.firstIndex { $0.hasPrefix("msgid ") } ?? lines.endIndex
            let idLines = lines[start...].prefix { $0 == lines[start] || $0.hasPrefix("\"") }
            let id = idLines.map { $0.drop { $0 != "\"" }.dropFirst().dropLast() }.joined()
            let flatID = id.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
            return flatID.count < 20 || !flatNews.contains(flatID)
        }.joined(separator: "\n\n")
    }

    @Test func theDistanceIsWordedOneWayInEachLanguage() throws {
        let news = try String(contentsOf: repository.appendingPathComponent("NEWS"), encoding: .utf8)
        let files = try Self.files()
        #expect(files.count > 100 && files.contains("po/nl.po") && files.contains("man/nl/icarectl.1"), "\(files.count) files")
        var found: [String] = []
        for file in files {
            guard var text = try? String(contentsOf: repository.appendingPathComponent(file), encoding: .utf8) else { continue }
            if file.hasPrefix("po/") { text = Self.withoutNews(text, news: news) }
            found += Self.variants(in: text, file: file, dutch: Self.isDutchOrEnglish(file))
        }
        #expect(found.isEmpty, "\n\(found.joined(separator: "\n"))")
    }

    @Test func theCheckFindsEachVariant() {
        for sample in ["about 6 m (20 ft) away", "look 20 feet away", "20 feet, 6 m, away", "something 6 m away",
                       "op 6 meter afstand", "20 voet", "zo'n 6 meter", "something about 20 feet (6 m) away"] {
            #expect(!Self.variants(in: sample, file: "x").isEmpty, "'\(sample)' passes")
        }
        for sample in ["look at something 20 feet (6 m) away", "naar iets op zo’n 6 meter afstand", "about 6 min", "\"20\n\"feet (6 m)"] {
            let found = Self.variants(in: sample, file: "x")
            #expect(found.isEmpty, "'\(sample)': \(found)")
        }
    }
}
