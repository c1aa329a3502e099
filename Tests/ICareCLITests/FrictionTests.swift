import Testing
import Foundation
import TestSupport

/// The small frictions of issue 18, each as a person meets it: the built
/// `icarectl` against the real `icared` on a private bus.
@Suite(.serialized) struct FrictionTests {
    static let notRecorded = "The break ended early and is not recorded.\n"

    func nowSeconds() -> Double { Date().timeIntervalSince1970 }

    @Test func snoozeZeroIsTheConfiguredSnoozeDurationAsOnDBus() throws {
        let h = try ServiceHarness(config: "SnoozeDuration = 7m\n")
        defer { h.stop() }
        let cli = try icarectl(h, ["snooze", "0"])
        #expect(cli.status == 0, "\(cli)")
        #expect(cli.stdout.hasPrefix("Snoozed until "))
        let viaCLI = Double(try h.number("NextBreak")) / 1e6 - nowSeconds()
        #expect(abs(viaCLI - 420) < 5, "snooze 0 from icarectl: \(viaCLI) s, want the SnoozeDuration of 420 s")
        #expect(try h.call("Skip").status == 0)
        #expect(try h.call("Snooze", "u", "0").status == 0)
        let viaBus = Double(try h.number("NextBreak")) / 1e6 - nowSeconds()
        #expect(abs(viaBus - 420) < 5, "Snooze(0) on D-Bus: \(viaBus) s")
        // 0 in another spelling means the same; a bad word is still a usage error.
        #expect(try icarectl(h, ["snooze", "0m"]).status == 0)
        #expect(try icarectl(h, ["snooze", "soon"]).status == 64)
    }

    @Test func snoozeOrPauseDuringABreakSayItIsNotRecorded() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        #expect(try icarectl(h, ["start"]).status == 0)
        #expect(try h.string("State") == "break")
        let snooze = try icarectl(h, ["snooze", "5m"])
        #expect(snooze.status == 0, "\(snooze)")
        #expect(snooze.stdout.hasPrefix(Self.notRecorded + "Snoozed until "), "\(snooze.stdout)")

        #expect(try icarectl(h, ["start"]).status == 0)
        let pause = try icarectl(h, ["pause"])
        #expect(pause.stdout == Self.notRecorded + "Paused until you resume ('icarectl resume').\n")
        #expect(try h.number("CompletedToday") == 0 && h.number("SkippedToday") == 0, "no record for either break")
        #expect(try icarectl(h, ["history", "--json"]).stdout.contains(#""breaks":[]"#))

        // Outside a break nothing of the kind is said.
        #expect(try icarectl(h, ["resume"]).status == 0)
        #expect(!(try icarectl(h, ["snooze"]).stdout.contains("not recorded")))
    }

    @Test func resumeWhenNothingIsPausedSaysSo() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        let before = try h.number("NextBreak")
        let r = try icarectl(h, ["resume"])
        #expect(r.status == 0)
        let next = try jsonObject(try icarectl(h, ["status", "--json"]).stdout)["next_break"] as? String ?? ""
        #expect(r.stdout == "Nothing is paused; reminders are on. The next break is at \(clockFromToday(next)).\n")
        #expect(try h.number("NextBreak") == before, "nothing changed")
        // In Dutch, with the catalogs compiled from po/ (as TranslationTests does).
        let catalogs = FileManager.default.temporaryDirectory.appendingPathComponent("icare-mo-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: catalogs) }
        let compiled = try Subprocess.run([GeneratedFilesTests.repo.path + "/scripts/po", "compile", catalogs], timeout: 60)
        #expect(compiled.status == 0, "\(compiled)")
        let nl = try icarectl(h, ["resume"], environment: ["LANG": "nl_NL.UTF-8", "TEXTDOMAINDIR": catalogs])
        #expect(nl.stdout.hasPrefix("Er is niets gepauzeerd; de herinneringen staan aan."), "\(nl)")
    }

    @Test func pauseToggleForAStatusBarClick() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        let first = try icarectl(h, ["pause", "toggle"])
        #expect(first.stdout == "Paused until you resume ('icarectl resume').\n")
        #expect(try h.string("State") == "paused")
        #expect(try h.string("PauseReason") == "user")
        let second = try icarectl(h, ["pause", "toggle"])
        #expect(second.stdout.hasPrefix("Resumed; the next break is at "), "\(second)")
        #expect(try h.string("State") == "waiting")
        #expect(try icarectl(h, ["pause", "toggle", "now"]).status == 64)
    }

    @Test func configProblemsShowInStatusGetAndOnTheBus() throws {
        let h = try ServiceHarness(config: "Interval = banana\nBreakDuration = 25s\n")
        defer { h.stop() }
        let property = try h.property("ConfigProblems")
        #expect(property.hasPrefix("as 1 \""), "\(property)")
        #expect(property.contains("config:1: error:"), "\(property)")

        let status = try icarectl(h, ["status"])
        #expect(status.status == 0)
        #expect(status.stdout.contains("\nProblems in the config file (a setting with an error keeps its previous value):\n  "), "\(status.stdout)")
        #expect(status.stdout.contains("config:1: error:"))
        let json = try jsonObject(try icarectl(h, ["status", "--json"]).stdout)
        #expect((json["config_problems"] as? [String])?.count == 1)

        let get = try icarectl(h, ["get"])
        #expect(get.status == 0)
        #expect(get.stdout.contains("BreakDuration"), "the settings stay on stdout")
        #expect(!get.stdout.contains("config:1"))
        #expect(get.stderr.hasPrefix("Problems in the config file"), "the problem is on stderr: \(get)")
        #expect(get.stderr.contains("config:1: error:"))
        #expect(try icarectl(h, ["get", "interval"]).stderr.contains("config:1: error:"))

        // Mended by hand: the property follows, with PropertiesChanged.
        let monitor = try BusMonitor(environment: h.environment) { _ = try h.property("State") }
        try "Interval = 25m\nBreakDuration = 25s\n".write(toFile: h.configDirectory + "/config", atomically: true, encoding: .utf8)
        #expect(waitUntil(timeout: 5) { monitor.changedProperties.contains("ConfigProblems") })
        #expect(try h.property("ConfigProblems") == "as 0")
        let clean = try icarectl(h, ["get"])
        #expect(clean.stderr == "")
        #expect(!(try icarectl(h, ["status"]).stdout.contains("Problems")))
    }
}
