import Foundation
import Testing
import TestSupport

/// The Shell extension's menu in every language of po/LINGUAS: gjs, with the language set as a desktop
/// sets it and iCare's catalogs bound as the Shell binds an extension's domain, gives every text the
/// menu can show (texts.js for each state, and each of indicator.js's items) in that language, with no
/// English left but names (`Catalogs.englishLeft`).
@Suite struct ShellExtensionLanguageTests {
    /// The texts the extension's menu shows for a set of states, one a line, in `environment`'s language.
    static func menuTexts(_ environment: [String: String]) throws -> ProcessResult {
        let folder = ShellExtensionTests.folder
        let indicator = try String(contentsOf: folder.appendingPathComponent("indicator.js"), encoding: .utf8)
        let items = try NSRegularExpression(pattern: #"gettext\('([^']*)'\)"#)
            .matches(in: indicator, range: NSRange(indicator.startIndex..., in: indicator))
            .map { String(indicator[Range($0.range(at: 1), in: indicator)!]) }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: items), as: UTF8.self)
        let texts = folder.appendingPathComponent("texts.js").absoluteString
        let script = """
            import Gettext from 'gettext';
            import {label, headline, accessibleName, tally, snooze} from '\(texts)';
            Gettext.bindtextdomain('icare', '\(environment["TEXTDOMAINDIR"] ?? "")');
            String.prototype.format = function (...values) { let i = 0; return this.replace(/%[ds]/g, () => String(values[i++])); };
            const t = {gettext: s => Gettext.dgettext('icare', s), ngettext: (one, many, n) => Gettext.dngettext('icare', one, many, n)};
            const clock = () => '10:20';
            const states = [
                {state: 'waiting', nextBreak: 1}, {state: 'snoozed', nextBreak: 1}, {state: 'due'}, {state: 'break', breakEnds: 1},
                {state: 'paused', pauseReason: 'dnd'}, {state: 'paused', pauseReason: 'locked'},
                {state: 'paused', pauseReason: 'busy', busySource: 'full-screen'}, {state: 'paused', pauseReason: 'busy'},
                {state: 'paused', pausedUntil: 1}, {state: 'paused', pausedUntil: 0}, {state: 'inactive', nextBreak: 1}, {state: 'inactive', nextBreak: 0},
            ];
            for (const s of states) {
                print(headline(t, s, clock));
                print(accessibleName(t, s, {secondsLeft: 300, look: s.state}, clock));
            }
            print(label(t, {secondsLeft: null, look: 'due'}));
            print(tally(t, {completedToday: 2, skippedToday: 1, missedToday: 0}));
            print(tally(t, {completedToday: 2, skippedToday: 1, missedToday: 3}));
            print(snooze(t, 300));
            for (const item of \(json))
                print(t.gettext(item));
            """
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("icare-gjs-lang-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("menu.js")
        try script.write(to: file, atomically: true, encoding: .utf8)
        return try Subprocess.run([try Subprocess.which("gjs"), "-m", file.path], environment: environment)
    }

    @Test(arguments: Catalogs.languages) func theMenuSpeaksIt(_ language: String) throws {
        let shown = try Self.menuTexts(try Catalogs.environment(language))
        let english = try Self.menuTexts(["LANG": "C.UTF-8", "TEXTDOMAINDIR": try Catalogs.compiled.get()])
        #expect(shown.status == 0 && english.status == 0, "\(shown)\n\(english)")
        #expect(english.stdout.contains("Start break now\n") && english.stdout.contains("Paused — screen locked\n"), "\(english.stdout)")
        let lines = shown.stdout.split(separator: "\n")
        #expect(lines.count == english.stdout.split(separator: "\n").count && lines.count > 40, "\(shown.stdout)")
        let left = try Catalogs.englishLeft(in: shown.stdout, language: language)
        #expect(left.isEmpty, "the extension's menu in \(language) says in English: \(left)\n\(shown.stdout)")
        #expect(!shown.stdout.contains("Start break now") && !shown.stdout.contains("Time for an eye break"), "\(shown.stdout)")
    }
}
