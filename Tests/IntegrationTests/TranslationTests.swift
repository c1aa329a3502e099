import Foundation
import Testing
import TestSupport

/// The translations, end to end: the catalogs are complete and in step with
/// the sources, and the real icared and icarectl speak Dutch under a Dutch
/// locale and English under C.UTF-8. The locales come from scripts/deps.sh;
/// one that is missing fails these tests.
@Suite struct TranslationTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The catalogs compiled once for this run (scripts/po compile).
    static var catalogs: Result<String, HarnessError> { Catalogs.compiled }

    static func locale(_ lang: String) throws -> [String: String] {
        try Catalogs.requireLocale(lang)
        return ["LANG": lang, "TEXTDOMAINDIR": try catalogs.get()]
    }

    static func dutch() throws -> [String: String] { try locale("nl_NL.UTF-8") }
    static let english = ["LANG": "C.UTF-8"]

    // MARK: the catalogs

    @Test func theTemplateHoldsExactlyTheTextsOfTheSources() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("icare-pot-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let fresh = tmp + ".pot"
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        let made = try Subprocess.run([Self.repo.path + "/scripts/po", "template", fresh], timeout: 60)
        #expect(made.status == 0, "extracting the texts failed: \(made)")
        let checkedIn = Self.repo.path + "/po/icare.pot"
        // msgcmp DEF REF: every text of REF must be in DEF.
        let missing = try Subprocess.run(["msgcmp", "--use-untranslated", checkedIn, fresh])
        #expect(missing.status == 0, "texts in the sources but not in po/icare.pot (run scripts/regenerate):\n\(missing.stderr)")
        let stale = try Subprocess.run(["msgcmp", "--use-untranslated", fresh, checkedIn])
        #expect(stale.status == 0, "texts in po/icare.pot no longer in the sources (run scripts/regenerate):\n\(stale.stderr)")
    }

    @Test func everyCatalogIsCompleteAndItsPlaceholdersMatch() throws {
        let r = try Subprocess.run([Self.repo.path + "/scripts/po", "check"], timeout: 60)
        #expect(r.status == 0, "\(r)")
        #expect(Catalogs.languages.contains("nl") && Catalogs.languages.count >= 10, "\(Catalogs.languages)")
    }

    /// docs/configuration.md names every language of po/LINGUAS, and no other, where it says which iCare speaks.
    @Test func theLanguagesPageNamesEveryLanguage() throws {
        let names = ["nl": "Dutch", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "pl": "Polish",
                     "pt_BR": "Brazilian Portuguese", "zh_CN": "Simplified Chinese", "ja": "Japanese", "ar": "Arabic"]
        let page = try String(contentsOfFile: Self.repo.path + "/docs/configuration.md", encoding: .utf8)
        // The sentence that names them, its lines joined.
        let section = (page.components(separatedBy: "## Languages\n").dropFirst().first?.components(separatedBy: "(`po/LINGUAS`)").first ?? "")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(section.hasPrefix("iCare speaks English, "), "\(section.prefix(200))")
        for code in Catalogs.languages {
            let name = try #require(names[code], "po/LINGUAS has \(code): name it here and in docs/configuration.md")
            #expect(section.contains(name), "docs/configuration.md does not say iCare speaks \(name)")
        }
        for (code, name) in names where !Catalogs.languages.contains(code) {
            #expect(!section.contains(name), "docs/configuration.md names \(name), which po/LINGUAS lacks")
        }
    }

    @Test func msgfmtCheckRefusesAPlaceholderMismatch() throws {
        // The guard itself: a catalog whose %d became %s does not pass.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("icare-bad-\(UUID().uuidString).po").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        msgid ""
        msgstr "Content-Type: text/plain; charset=UTF-8\\n"

        #, c-format
        msgid "%d completed, %d skipped"
        msgstr "%s voltooid, %d overgeslagen"

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try Subprocess.run(["msgfmt", "--check", "-o", "/dev/null", path])
        #expect(r.status != 0 && r.stderr.contains("format specifications"), "\(r)")
    }

    @Test(arguments: Catalogs.languages) func theManPageIsInStepWithTheTableAndTheCatalog(_ language: String) throws {
        var env = try Catalogs.environment(language)
        env["LANG"] = "C.UTF-8"  // as scripts/regenerate makes it: LANGUAGE alone
        let r = try Subprocess.run([try Products.path("icarectl"), "--generate-manual"], environment: env)
        let checkedIn = try String(contentsOfFile: Self.repo.path + "/man/\(language)/icarectl.1", encoding: .utf8)
        #expect(r.status == 0 && r.stdout == checkedIn, "man/\(language)/icarectl.1 is out of date; run scripts/regenerate")
        #expect(!checkedIn.contains(".SH NAME\n") && !checkedIn.contains(".SH DESCRIPTION\n") || language == "fr",
                "man/\(language)/icarectl.1 has English headings")
    }

    @Test func theDutchManPageSaysItsNameInDutch() throws {
        let checkedIn = try String(contentsOfFile: Self.repo.path + "/man/nl/icarectl.1", encoding: .utf8)
        #expect(checkedIn.contains(".SH NAAM\nicarectl \\- bedien iCare"))
    }

    // MARK: icarectl

    @Test func icarectlSpeaksDutchUnderADutchLocaleAndEnglishUnderC() throws {
        let s = try ServiceHarness(environment: Self.english)
        defer { s.stop() }
        let ctl = try Products.path("icarectl")
        let nl = try Subprocess.run([ctl, "status"], environment: s.environment.merging(try Self.dutch()) { $1 })
        #expect(nl.status == 0, "\(nl)")
        #expect(nl.stdout.contains("Toestand:") && nl.stdout.contains("Volgende pauze:") && nl.stdout.contains("Niet storen:"), "\(nl.stdout)")
        #expect(nl.stdout.contains("0 voltooid, 0 overgeslagen"), "\(nl.stdout)")
        // Dutch writes a 24-hour clock: "Volgende pauze: 14:32, over 20m" ("morgen 00:12" near midnight).
        #expect(nl.stdout.range(of: #"Volgende pauze: +(morgen )?[0-2][0-9]:[0-5][0-9], over 20m"#, options: .regularExpression) != nil, "\(nl.stdout)")

        let en = try Subprocess.run([ctl, "status"], environment: s.environment.merging(Self.english) { $1 })
        #expect(en.stdout.contains("State:") && en.stdout.contains("Next break:") && en.stdout.contains("0 completed, 0 skipped"), "\(en.stdout)")

        let usage = try Subprocess.run([ctl, "snooze", "soon"], environment: s.environment.merging(try Self.dutch()) { $1 })
        #expect(usage.status == 64)
        #expect(usage.stderr.hasPrefix("Fout: 'soon' is geen tijdsduur; schrijf iets als 90s, 5m of 1h30m.\nGebruik: icarectl snooze"), "\(usage.stderr)")
    }

    @Test func anAmericanLocaleGetsATwelveHourClock() throws {
        let s = try ServiceHarness(environment: Self.english)
        defer { s.stop() }
        var env = s.environment.merging(try Self.locale("en_US.UTF-8")) { $1 }
        env["TZ"] = "UTC"
        let r = try Subprocess.run([try Products.path("icarectl"), "status"], environment: env)
        #expect(r.stdout.range(of: #"Next break: +(tomorrow )?1?[0-9]:[0-5][0-9] [AP]M, in 20m"#, options: .regularExpression) != nil, "\(r.stdout)")
    }

    @Test func anUnknownOrBrokenLocaleFallsBackToEnglish() throws {
        let s = try ServiceHarness(environment: Self.english)
        defer { s.stop() }
        let catalogs = try Self.catalogs.get()
        for env in [["LANG": "xx_YY.UTF-8"], ["LANG": "nl_NL.UTF-8", "LC_ALL": "no_such_locale"], ["LANGUAGE": "zz", "LANG": "C"]] {
            let r = try Subprocess.run([try Products.path("icarectl"), "status"],
                                       environment: s.environment.merging(env.merging(["TEXTDOMAINDIR": catalogs]) { $1 }) { $1 })
            #expect(r.status == 0 && r.stdout.contains("State:") && r.stderr.isEmpty, "\(env): \(r)")
        }
    }

    // MARK: icared

    @Test func theServiceSendsItsReminderAndRefusalsInDutch() throws {
        let (s, fake) = try NotificationTests.dueService(environment: try Self.dutch())
        defer { NotificationTests.stop(s, fake) }
        let reminder = try NotificationTests.first(fake) { $0.isICare }
        #expect(reminder.summary == "Tijd voor een oogpauze")
        #expect(reminder.body == "Kijk 20 seconden naar iets op zo’n 6 meter afstand.")
        #expect(reminder.actions == ["default", "", "start", "Beginnen", "snooze", "Uitstellen 5 min", "skip", "Overslaan"],
                "\(reminder.actions)")
        // A refusal over D-Bus is a sentence in the person's language too.
        let refused = try s.call("Snooze", "u", "5")
        #expect(refused.status != 0 && refused.stderr.contains("Snooze neemt 60 tot 3600 seconden"), "\(refused)")
        // The interface's documentation stays English whatever the locale.
        let xml = try s.busctl(["introspect", "--xml-interface", "org.icare.Reminder", "/org/icare/Reminder"]).stdout
        #expect(xml.contains("Interval must be between 900 and 2700 seconds") && !xml.contains("moet tussen"))
    }

    @Test func withoutANotificationServerTheLogShowsTheReminderInDutch() throws {
        let s = try ServiceHarness(environment: try Self.dutch(), start: false)
        defer { s.stop() }
        try NotificationTests.writeState(s, NotificationTests.waitingState(dueIn: 1))
        try s.start()
        let said = "Tijd voor een oogpauze: kijk 20 seconden naar iets op zo’n 6 meter afstand."
        #expect(waitUntil(timeout: 10) { s.log.contains(said) }, "log:\n\(s.log)")
    }

    @Test func icaredHelpAndErrorsAreDutch() throws {
        let icared = try Products.path("icared")
        let help = try Subprocess.run([icared, "--help"], environment: try Self.dutch())
        #expect(help.status == 0 && help.stdout.hasPrefix("Gebruik: icared "), "\(help)")
        let bad = try Subprocess.run([icared, "--time-scale", "0"], environment: try Self.dutch())
        #expect(bad.status == 64 && bad.stderr == "icared: --time-scale neemt een geheel getal van 1 tot 3600, niet '0'. Probeer 'icared --help'.\n",
                "\(bad)")
    }

    @Test func theServiceSpeaksEnglishUnderC() throws {
        let (s, fake) = try NotificationTests.dueService(environment: Self.english)
        defer { NotificationTests.stop(s, fake) }
        let reminder = try NotificationTests.first(fake) { $0.isICare }
        #expect(reminder.summary == "Time for an eye break")
        #expect(reminder.body == "Look at something 20 feet (6 m) away for 20 seconds.")
    }
}
