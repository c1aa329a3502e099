import Foundation
import TestSupport

/// The commands in the README's code blocks, as a person would type them.
enum ReadmeCommands {
    static var readme: MarkdownFile {
        get throws { try MarkdownFile(repository.appendingPathComponent("README.md")) }
    }

    /// The lines of the `## ` section whose heading starts with `title`, up to the next `## `.
    static func section(_ title: String) throws -> [(line: String, number: Int, inCode: Bool)] {
        let lines = try readme.linesWithFences
        guard let start = lines.firstIndex(where: { !$0.inCode && $0.line.hasPrefix("## " + title) }) else {
            throw HarnessError("README.md has no section '## \(title)…'")
        }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { !$0.inCode && $0.line.hasPrefix("## ") } ?? lines.endIndex
        return Array(lines[(start + 1)..<end])
    }

    /// Each command in the section's code blocks: its words, without the
    /// comment after ` #`. A command the test could not run as written (a
    /// quote, a pipe, a variable) is an error, so the README stays runnable.
    static func commands(inSection title: String) throws -> [[String]] {
        var result: [[String]] = []
        for entry in try section(title) where entry.inCode {
            if entry.line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { continue }
            var text = entry.line
            if let comment = text.range(of: #"\s#"#, options: .regularExpression) { text = String(text[..<comment.lowerBound]) }
            text = text.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { continue }
            if let odd = text.first(where: { "'\"|&;$<>\\`*(){}".contains($0) }) {
                throw HarnessError("README.md:\(entry.number): '\(odd)' in \(text); the test runs commands word by word")
            }
            result.append(text.split(separator: " ").map(String.init))
        }
        return result
    }

    /// The programs the README shows as `.build/release/NAME`.
    static var releaseProgramsShown: Set<String> {
        get throws {
            let text = try readme.lines.joined(separator: "\n")
            let pattern = try NSRegularExpression(pattern: #"\.build/release/([A-Za-z0-9_-]+)"#)
            let ns = text as NSString
            return Set(pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range(at: 1)) })
        }
    }
}

/// The real scripts/run in a copy of its folder, with `swift` and
/// scripts/deps.sh stood in for (nothing installed, nothing compiled): what
/// it asks `swift build` for, and that it then starts the icared it built.
struct ScriptsRunRehearsal {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("icare-run-\(UUID().uuidString.prefix(8))")
        let scripts = root.appendingPathComponent("scripts"), stubs = root.appendingPathComponent("stubs")
        let bin = root.appendingPathComponent("bin")
        for folder in [scripts, stubs, bin] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        for script in ["run", "products.sh"] {
            try FileManager.default.copyItem(at: repository.appendingPathComponent("scripts/\(script)"), to: scripts.appendingPathComponent(script))
        }
        try Self.executable(scripts.appendingPathComponent("deps.sh"), "#!/bin/sh\necho \"deps.sh $*\" >>\"$REHEARSAL_LOG\"\n")
        try Self.executable(stubs.appendingPathComponent("swift"), """
            #!/bin/sh
            echo "swift $*" >>"$REHEARSAL_LOG"
            case " $* " in *" --show-bin-path "*) echo "$REHEARSAL_BIN" ;; esac

            """)
        try Self.executable(bin.appendingPathComponent("icared"), "#!/bin/sh\necho \"icared $*\" >>\"$REHEARSAL_LOG\"\n")
    }

    static func executable(_ url: URL, _ text: String) throws {
        try text.write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    }

    /// Runs scripts/run on `bus` and returns what the stand-ins were asked, one line each.
    func run(bus: PrivateBus) throws -> (result: ProcessResult, log: [String]) {
        let log = root.appendingPathComponent("log")
        let path = root.appendingPathComponent("stubs").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let environment = bus.environment.merging([
            "PATH": path, "REHEARSAL_LOG": log.path, "REHEARSAL_BIN": root.appendingPathComponent("bin").path,
            "TEXTDOMAINDIR": root.appendingPathComponent("locale").path, "ICARE_BIN_DIR": "",
        ]) { $1 }
        let result = try Subprocess.run([root.appendingPathComponent("scripts/run").path], environment: environment, timeout: 30)
        let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        return (result, lines)
    }

    /// The products a logged `swift build … --product NAME` asked for.
    static func productsBuilt(_ log: [String]) -> [String] {
        log.compactMap { line in
            let words = line.split(separator: " ").map(String.init)
            guard words.first == "swift", words.dropFirst().first == "build", let flag = words.firstIndex(of: "--product"),
                  flag + 1 < words.count else { return nil }
            return words[flag + 1]
        }
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}
