import Foundation

/// iCare's translations as the tests use them: the languages of po/LINGUAS, their catalogs compiled
/// once (scripts/po compile), the environment a desktop sets for each, and a reader of the .po files
/// that tells which English texts were left in what a program showed (po/README.md).
public enum Catalogs {
    public static let repo = ServiceHarness.repo

    /// The languages of po/LINGUAS, in its order.
    public static let languages: [String] = {
        let text = (try? String(contentsOfFile: repo.path + "/po/LINGUAS", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .flatMap { $0.split(separator: " ") }.map(String.init)
    }()

    /// The locale a desktop sets for each language: the country whose desktop words its glossary took
    /// (scripts/deps.sh generates each).
    public static func locale(_ language: String) -> String {
        let countries = ["nl": "NL", "de": "DE", "fr": "FR", "es": "ES", "it": "IT", "pl": "PL", "ja": "JP", "ar": "EG"]
        if language.contains("_") { return language + ".UTF-8" }
        return "\(language)_\(countries[language] ?? language.uppercased()).UTF-8"
    }

    /// The catalogs compiled once for this run.
    public static let compiled: Result<String, HarnessError> = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("icare-mo-\(UUID().uuidString)").path
        do {
            let r = try Subprocess.run([repo.path + "/scripts/po", "compile", dir], timeout: 120)
            guard r.status == 0 else { return .failure(HarnessError("scripts/po compile failed: \(r)")) }
            return .success(dir)
        } catch {
            return .failure(HarnessError("scripts/po compile: \(error)"))
        }
    }()

    /// LANG, LANGUAGE and the catalogs' folder, as a desktop session sets the first two; fails when the
    /// locale is not installed.
    public static func environment(_ language: String) throws -> [String: String] {
        let name = locale(language)
        try requireLocale(name)
        return ["LANG": name, "LANGUAGE": language, "TEXTDOMAINDIR": try compiled.get()]
    }

    /// Fails unless the locale `name` ("nl_NL.UTF-8") is installed, as scripts/deps.sh installs the tests' ones.
    public static func requireLocale(_ name: String) throws {
        let available = try Subprocess.run(["locale", "-a"]).stdout.lowercased().split(separator: "\n")
        guard available.contains(Substring(name.lowercased().replacingOccurrences(of: "utf-8", with: "utf8"))) else {
            throw HarnessError("the locale \(name) is not installed; scripts/deps.sh generates it")
        }
    }

    /// One text of a catalog: its English (with the plural), its translations, and the files it
    /// comes from (its `#:` references, without line numbers).
    public struct Entry: Sendable {
        public var context: String?
        public var english: [String]
        public var translations: [String]
        public var references: [String] = []
    }

    /// The template's and every language's entries, read once for the run.
    static let read: [String: [Entry]] = {
        var all: [String: [Entry]] = [:]
        for file in ["icare.pot"] + languages.map({ $0 + ".po" }) { all[file] = try? parse(file) }
        return all
    }()

    /// The live entries of po/<name> (a language's catalog or icare.pot), the header left out.
    public static func entries(_ file: String) throws -> [Entry] {
        if let known = read[file] { return known }
        return try parse(file)
    }

    static func parse(_ file: String) throws -> [Entry] {
        let text = try String(contentsOfFile: repo.path + "/po/" + file, encoding: .utf8)
        var out: [Entry] = []
        var fields: [(key: String, value: String)] = []
        var references: [String] = []
        func flush() {
            let english = fields.filter { $0.key == "msgid" || $0.key == "msgid_plural" }.map(\.value)
            if let first = english.first, !first.isEmpty {
                out.append(Entry(context: fields.first { $0.key == "msgctxt" }?.value, english: english,
                                 translations: fields.filter { $0.key.hasPrefix("msgstr") }.map(\.value), references: references))
            }
            fields = []
            references = []
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#:") {
                if fields.contains(where: { $0.key.hasPrefix("msgstr") }) { flush() }
                references += line.dropFirst(2).split(separator: " ").map { String($0.split(separator: ":").first ?? $0) }
                continue
            }
            if line.hasPrefix("#") { continue }
            if line.isEmpty { flush(); continue }
            if line.hasPrefix("\"") {
                if !fields.isEmpty { fields[fields.count - 1].value += unquote(line) }
                continue
            }
            guard let space = line.firstIndex(of: " ") else { continue }
            let key = String(line[..<space])
            if key == "msgctxt" || (key == "msgid" && fields.contains { $0.key.hasPrefix("msgstr") }) { flush() }
            fields.append((key, unquote(String(line[line.index(after: space)...]))))
        }
        flush()
        return out
    }

    static func unquote(_ quoted: String) -> String {
        var s = quoted.trimmingCharacters(in: .whitespaces)
        if s.hasPrefix("\"") { s.removeFirst() }
        if s.hasSuffix("\"") { s.removeLast() }
        var out = ""
        var escaped = false
        for c in s {
            if escaped {
                switch c {
                case "n": out.append("\n")
                case "t": out.append("\t")
                default: out.append(c)
                }
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// What `language`'s catalog says for `english` (its first form); `english` itself where it has none.
    public static func translation(of english: String, context: String? = nil, in language: String) throws -> String {
        let found = try entries(language + ".po").first { $0.english.first == english && $0.context == context }?.translations.first ?? ""
        return found.isEmpty ? english : found
    }

    /// Names that stay as they are in every language.
    public static let names = ["iCare", "KDE Connect", "GSConnect", "GNOME", "Plasma", "Flatpak", "PipeWire", "D-Bus", "KDE"]

    /// The English pieces of the template's texts (split at placeholders and line ends) that `shown`
    /// holds and that `language`'s own catalog never uses, each with the text it came from. A piece is
    /// two words or more, or one word of five letters or more; names and what a person types are left out.
    public static func englishLeft(in shown: String, language: String) throws -> [String] {
        let translated = try entries(language + ".po").flatMap(\.translations).joined(separator: "\n")
        return try templatePieces.get().filter { contains(shown, $0.piece) && !contains(translated, $0.piece) }
            .map { "'\($0.piece)' (from '\($0.english)')" }
    }

    /// Every piece of the template's English worth looking for, once each, with the text it came from.
    static let templatePieces: Result<[(piece: String, english: String)], HarnessError> = {
        do {
            var seen = Set<String>()
            var all: [(piece: String, english: String)] = []
            for english in try entries("icare.pot").flatMap(\.english) {
                for piece in pieces(english) where seen.insert(piece).inserted { all.append((piece, english)) }
            }
            return .success(all)
        } catch {
            return .failure(HarnessError("po/icare.pot: \(error)"))
        }
    }()

    /// Placeholders, quoted commands, options and what stands in brackets cut a text into pieces.
    static let cut = try! NSRegularExpression(
        pattern: #"%(\d+\$)?[-#0 +']*\d*(\.\d+)?(l|ll|z)?[a-zA-Z@%]|'[^']*'|\([^)]*\)|--?[a-z][a-z-]*|[\n\x{01}:;·—()\[\]"…]"#)

    /// The pieces of an English text worth looking for.
    static func pieces(_ english: String) -> [String] {
        var text = english
        for name in names { text = text.replacingOccurrences(of: name, with: "\u{1}") }
        let marked = cut.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "\u{1}")
        return marked.split(separator: "\u{1}").map { $0.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters)) }
            .filter { piece in
                let words = piece.split(separator: " ").filter { $0.contains { $0.isLetter } }
                // What a person types (a command, a setting's name) is not a text to translate.
                guard !piece.contains("icarectl"), words.allSatisfy({ !$0.contains { $0.isUppercase } || $0.first!.isUppercase }),
                      !words.contains(where: { $0.dropFirst().contains { $0.isUppercase } }) else { return false }
                return words.count >= 2 || (words.count == 1 && words[0].count >= 5)
            }
    }

    /// Whether `piece` stands in `text` as whole words.
    static func contains(_ text: String, _ piece: String) -> Bool {
        text.range(of: #"(?<![\p{L}\p{N}])"# + NSRegularExpression.escapedPattern(for: piece) + #"(?![\p{L}\p{N}])"#,
                   options: .regularExpression) != nil
    }
}
