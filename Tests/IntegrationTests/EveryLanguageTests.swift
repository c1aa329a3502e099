import Foundation
import Testing
import TestSupport

/// Every language of po/LINGUAS, as a desktop sets it (LANG and LANGUAGE): the real icared's reminder,
/// the ring's menu and tooltip, `icarectl status`, `doctor` and `--help` hold no English text but names
/// (`Catalogs.englishLeft`: any piece of the template's English that the language's own catalog never
/// uses), and each says something else than the English does. The locales come from scripts/deps.sh.
@Suite struct EveryLanguageTests {
    static let languages = Catalogs.languages

    @Test func everyLanguageOfTheTranslationsIsTested() {
        #expect(Self.languages.count >= 10 && Self.languages.contains("nl"), "\(Self.languages)")
    }

    /// `icarectl status`, `doctor` and `--help` in `language`, and the same in English.
    @Test(arguments: languages) func icarectlSpeaksIt(_ language: String) throws {
        // The whole session in the language, icared too: what it says of the desktop (Capabilities) is its words.
        let s = try ServiceHarness(environment: try Catalogs.environment(language))
        defer { s.stop() }
        let ctl = try Products.path("icarectl")
        let env = s.environment
        for command in [["status"], ["doctor"], ["--help"], ["history"]] {
            let shown = try Subprocess.run([ctl] + command, environment: env)
            let english = try Subprocess.run([ctl] + command, environment: s.environment.merging(["LANG": "C.UTF-8", "LANGUAGE": ""]) { $1 })
            #expect(shown.status == english.status, "\(command): \(shown)")
            let left = try Catalogs.englishLeft(in: shown.stdout + shown.stderr, language: language)
            #expect(left.isEmpty, "icarectl \(command.joined(separator: " ")) in \(language) says in English: \(left)\n\(shown.stdout)")
            #expect(shown.stdout != english.stdout, "icarectl \(command) in \(language) is the English:\n\(shown.stdout)")
        }
    }

    /// The reminder, as a notification server gets it: its title, body and buttons.
    @Test(arguments: languages) func theReminderIsInIt(_ language: String) throws {
        let (s, fake) = try NotificationTests.dueService(environment: try Catalogs.environment(language))
        defer { NotificationTests.stop(s, fake) }
        let reminder = try NotificationTests.first(fake) { $0.isICare }
        let labels = stride(from: 3, to: reminder.actions.count, by: 2).map { reminder.actions[$0] }
        let shown = ([reminder.summary, reminder.body] + labels).joined(separator: "\n")
        #expect(try Catalogs.englishLeft(in: shown, language: language).isEmpty, "\(language): \(shown)")
        #expect(reminder.summary != "Time for an eye break" && reminder.body != "Look at something 20 feet (6 m) away for 20 seconds.")
        #expect(labels.count == 3 && !labels.contains("Start") && !labels.contains("Skip") && !labels.contains("Snooze 5 min"), "\(labels)")
        // A refusal over D-Bus is a sentence in the person's language too.
        let refused = try s.call("Snooze", "u", "5")
        #expect(refused.status != 0 && !refused.stderr.contains("Snooze takes 60 to 3600 seconds"), "\(refused)")
        #expect(try Catalogs.englishLeft(in: refused.stderr, language: language).isEmpty, "\(refused.stderr)")
    }

    /// The ring's menu and its words for screen readers, as a panel reads them.
    @Test(arguments: languages) func theRingsMenuIsInIt(_ language: String) throws {
        let rig = try DndBusRig(config: "Interval = 20m\n", environment: try Catalogs.environment(language))
        let watcher = FakeWatcher()
        try rig.appear(watcher)
        try rig.service.start()
        defer { rig.service.stop() }
        #expect(try waitUntil(timeout: 5) { try StatusItemTests.registered(rig, watcher).count == 1 })
        let labels = try StatusMenuUpdateTests.layout(rig).values.compactMap { $0["label"] as? String }
        let words = try StatusItemAccessibilityTests.words(rig) ?? ""
        let shown = (labels + [words]).joined(separator: "\n")
        #expect(labels.count > 10, "\(labels)")
        #expect(!labels.contains("Start break now") && words != "Next break in 20 minutes", "\(shown)")
        let left = try Catalogs.englishLeft(in: shown.replacingOccurrences(of: "_", with: ""), language: language)
        #expect(left.isEmpty, "the ring's menu in \(language) says in English: \(left)\n\(shown)")
    }

    /// A catalog that lacks a text falls back to English for that text alone: the reminder's title in
    /// English, its body still in German (gettext, text by text; never an empty string).
    @Test func anIncompleteCatalogFallsBackTextByText() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("icare-partial-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/de/LC_MESSAGES", withIntermediateDirectories: true)
        let full = try String(contentsOfFile: Catalogs.repo.path + "/po/de.po", encoding: .utf8)
        let title = try Catalogs.translation(of: "Time for an eye break", in: "de")
        #expect(title != "Time for an eye break")
        let partial = full.replacingOccurrences(of: "msgid \"Time for an eye break\"\nmsgstr \"\(title)\"",
                                                with: "msgid \"Time for an eye break\"\nmsgstr \"\"")
        #expect(partial != full, "po/de.po's entry for the reminder's title is not where the test looks")
        try partial.write(toFile: dir + "/de.po", atomically: true, encoding: .utf8)
        let compiled = try Subprocess.run(["msgfmt", "-o", dir + "/de/LC_MESSAGES/icare.mo", dir + "/de.po"])
        #expect(compiled.status == 0, "\(compiled)")
        var env = try Catalogs.environment("de")
        env["TEXTDOMAINDIR"] = dir
        let (s, fake) = try NotificationTests.dueService(environment: env)
        defer { NotificationTests.stop(s, fake) }
        let reminder = try NotificationTests.first(fake) { $0.isICare }
        #expect(reminder.summary == "Time for an eye break", "\(reminder)")
        #expect(reminder.body.contains("etwa 6 Meter entfernt") && !reminder.body.contains("Look at"), "\(reminder)")
    }

    /// The watch view's keys keep their letters in every language (`icarectl watch` reads s, z, k, p, q).
    @Test(arguments: languages) func theWatchViewsKeysKeepTheirLetters(_ language: String) throws {
        for english in ["s start  z snooze  k skip  p pause  q quit", "s start  z snooze  k skip  p resume  q quit"] {
            let shown = try Catalogs.translation(of: english, in: language)
            let letters = shown.components(separatedBy: "  ").compactMap(\.first)
            #expect(letters == ["s", "z", "k", "p", "q"] && shown != english, "\(language): '\(shown)'")
        }
        #expect(try Catalogs.translation(of: "q quit", in: language).hasPrefix("q "))
    }

    /// The finder itself: it finds an English sentence left in a translated output, and passes names.
    @Test func theFinderFindsEnglishAndPassesNames() throws {
        let found = try Catalogs.englishLeft(in: "Nächste Pause um 10:20\nTime for an eye break", language: "nl")
        #expect(found.contains { $0.hasPrefix("'Time for an eye break'") }, "\(found)")
        #expect(try Catalogs.englishLeft(in: "iCare · KDE Connect · GNOME", language: "nl").isEmpty)
        #expect(try Catalogs.englishLeft(in: "Volgende pauze om 10:20", language: "nl").isEmpty)
    }
}
