import Testing
import Foundation
import TestSupport

/// `Capabilities` and `icarectl doctor` (issue 47) with the real icared on a private bus, inside its
/// unit's sandbox unless a test says bare: what the reminder can rely on, from the notification server
/// the session has (the fake of NotificationTests, GNOME Shell 43's and dunst's exact shapes) or none.
struct DoctorTests {
    /// `icarectl doctor --json`'s capabilities by name: (state, words).
    static func report(_ s: ServiceHarness) throws -> (status: Int32, byName: [String: (String, String)], text: String) {
        let r = try Subprocess.run([try Products.path("icarectl"), "doctor", "--json"], environment: s.environment)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r)")
        let list = try #require(o["capabilities"] as? [[String: String]], "\(r.stdout)")
        var byName: [String: (String, String)] = [:]
        for c in list { byName[c["name"] ?? "?"] = (c["state"] ?? "?", c["words"] ?? "?") }
        #expect(list.map { $0["name"] ?? "?" } == ["reminder-buttons", "do-not-disturb", "time-away", "calls", "ring", "sounds",
                                                  "phones", "login", "sandbox"], "the order: \(list)")
        #expect(o["failing"] as? Int == list.filter { !["works", "off"].contains($0["state"] ?? "") }.count)
        return (r.status, byName, r.stdout)
    }

    /// Waits until the report says `state` for `name` (the service learns the desktop in round trips).
    static func waitFor(_ s: ServiceHarness, _ name: String, _ state: String) throws -> String {
        var last = ("?", "?")
        let ok = try waitUntil(timeout: 10, interval: 0.1) {
            last = try report(s).byName[name] ?? ("?", "?")
            return last.0 == state
        }
        #expect(ok, "\(name) is \(last), not \(state)\n\(s.log)")
        return last.1
    }

    @Test func aServerWithButtonsWorksAndOneWithoutIsSaid() throws {
        let (s, fake) = try NotificationTests.service()
        defer { NotificationTests.stop(s, fake) }
        #expect(try Self.waitFor(s, "reminder-buttons", "works") == "GNOME Shell 43.9 shows Start, Snooze and Skip.")
        // The property itself, as any client reads it, says the same as icarectl.
        #expect(try s.capabilities()["reminder-buttons"]?.words == "GNOME Shell 43.9 shows Start, Snooze and Skip.")
        let (plain, other) = try NotificationTests.service(capabilities: "body", serverName: "notify-osd|Canonical Ltd|1.0")
        defer { NotificationTests.stop(plain, other) }
        #expect(try Self.waitFor(plain, "reminder-buttons", "missing")
                == "notify-osd 1.0 draws no buttons: start a break from the ring or with 'icarectl start'.")
    }

    @Test func noServerIsSaidAndAServerThatComesLaterIsFollowed() throws {
        let s = try ServiceHarness()
        defer { s.stop() }
        #expect(try Self.waitFor(s, "reminder-buttons", "missing") == "No notification server is running: reminders go to iCare's log only.")
        let before = try Self.report(s)
        #expect(before.status == 1, "doctor exits 1 when something does not work: \(before.text)")
        let fake = try FakeNotificationServer(environment: s.bus.environment)
        defer { fake.stop() }
        try fake.start()
        _ = try Self.waitFor(s, "reminder-buttons", "works")
    }

    /// As installed: the unit's sandbox and systemd starting it; bare, neither (and no autostart entry in this home).
    @Test func theSandboxAndLoginAreSaidAsTheServiceRuns() throws {
        let s = try ServiceHarness()
        defer { s.stop() }
        let unit = try Self.report(s).byName
        #expect(unit["sandbox"]?.0 == "works" && unit["sandbox"]?.1 == "Inside its systemd unit's sandbox; nothing iCare needs is held back.",
                "\(String(describing: unit["sandbox"]))")
        #expect(unit["login"]?.0 == "works" && unit["login"]?.1 == "Started by systemd, as icared.service.")
        #expect(unit["phones"]?.0 == "off" && unit["sounds"]?.0 != "missing", "\(unit)")

        let bare = try ServiceHarness(start: false)
        defer { bare.stop() }
        bare.bare = true
        try bare.start()
        let b = try Self.report(bare).byName
        #expect(b["sandbox"]?.0 == "off" && b["login"]?.0 == "limited", "\(b)")
    }

    /// The text: a mark and a heading a line, and doctor's exit status.
    @Test func theTextHasALineForEachAndSaysWhatFails() throws {
        let (s, fake) = try NotificationTests.service()
        defer { NotificationTests.stop(s, fake) }
        _ = try Self.waitFor(s, "reminder-buttons", "works")
        let r = try Subprocess.run([try Products.path("icarectl"), "doctor"], environment: s.environment)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "✓ Reminder buttons       GNOME Shell 43.9 shows Start, Snooze and Skip.", "\(r.stdout)")
        #expect(lines.contains { $0.hasPrefix("– Phones ") }, "\(r.stdout)")
        let failing = try Self.report(s).byName.values.filter { !["works", "off"].contains($0.0) }.count
        #expect(r.status == (failing > 0 ? 1 : 0), "\(r)")
        if failing > 0 { #expect(r.stderr.contains("would expect"), "\(r.stderr)") }
    }
}
