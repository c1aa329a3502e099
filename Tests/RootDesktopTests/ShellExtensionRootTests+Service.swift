import Testing
import Foundation
import TestSupport

/// The ring follows icared: a change made with icarectl, icared gone and back
/// (started again with a time scale, so a reminder comes due in seconds: the
/// due ring, Snooze and Skip from the menu).
extension ShellExtensionSteps {
    /// Runs `command` inside and measures how long until the top bar shows `look` (from icarectl's return):
    /// within 3 s it must; how long it took is printed, a figure, not a limit (a loaded machine is slower).
    func icarectl(_ command: [String], shows look: ShellExtensionRig.Look, least: Int) throws -> Double {
        let r = try rig.session.run(["icarectl"] + command)
        #expect(r.status == 0, "icarectl \(command.joined(separator: " ")): \(r)")
        let returned = Date()
        var pixels = 0
        let ok = try waitUntil(timeout: 3, interval: 0.02) {
            pixels = try rig.ringPixels(look)
            return pixels >= least
        }
        let seconds = Date().timeIntervalSince(returned)
        #expect(ok, "icarectl \(command.joined(separator: " ")): the ring showed \(look) after \(seconds) s (\(pixels) pixels)")
        return seconds
    }

    func ms(_ seconds: Double) -> String { "\(Int(seconds * 1000)) ms" }

    func icarectlShowsInTheTopBar() throws {
        // What iCare says it can see here, as this suite proves it: the ring drawn by its extension, the Shell's banners.
        let seen = try rig.session.capabilities(become: ["ring": "works", "reminder-buttons": "works"])
        #expect(seen["ring"]?.words == "In the top bar, drawn by iCare's GNOME Shell extension."
                && seen["reminder-buttons"]?.words == "GNOME Shell \(release.gnomeShell) shows Start, Snooze and Skip.", "\(seen)")
        let pause = try icarectl(["pause", "10m"], shows: .paused, least: 6)
        #expect(try rig.icareProperty("State") == state("paused"))
        #expect(try rig.theIndicator().accessibleName.contains("Paused"), "\(String(describing: try? rig.indicator()))")
        let resume = try icarectl(["resume"], shows: .waiting, least: 12)
        #expect(try rig.icareProperty("State") == state("waiting"))
        #expect(try rig.theIndicator().label == "20 min")
        let start = try icarectl(["start"], shows: .break, least: 12)
        let skip = try icarectl(["skip"], shows: .waiting, least: 12)
        #expect(try rig.icareProperty("State") == state("waiting"))
        print("GNOME Shell \(release.gnomeShell): from icarectl's return to the top bar's pixels: pause \(ms(pause)), "
              + "resume \(ms(resume)), start \(ms(start)), skip \(ms(skip))")
    }

    /// icared's process id inside the root (the bus runs there).
    func icaredPid() throws -> String {
        let answer = try rig.session.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetConnectionUnixProcessID",
                                          ["org.icare.Reminder"])
        // "(uint32 1234,)"
        return String((answer.split(separator: " ").last ?? "").filter(\.isNumber))
    }

    func stopIcared() throws {
        let pid = try icaredPid()
        let r = try rig.session.run(["kill", pid])
        #expect(r.status == 0, "kill \(pid): \(r)")
        #expect(try waitUntil(timeout: 5, interval: 0.1) { try !rig.session.nameHasOwner("org.icare.Reminder") }, "icared did not end")
    }

    /// The activation environment icared starts with from now on, and its settings file.
    func prepareIcared(scale: String, config: String) throws {
        _ = try rig.session.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.UpdateActivationEnvironment",
                                 ["{'ICARE_TIME_SCALE': '\(scale)'}"])
        try config.write(to: rig.root.work.appendingPathComponent("config/icare/config"), atomically: true, encoding: .utf8)
    }

    func icaredStoppedAndStartedAgain() throws {
        try stopIcared()
        var seen: ShellExtensionRig.Indicator? = nil
        let said = try waitUntil(timeout: 2, interval: 0.1) {
            seen = try rig.indicator()
            return seen?.accessibleName == "iCare is not running" && seen?.label == ""
        }
        #expect(said, "icared stopped: \(seen.map(String.init(describing:)) ?? "no indicator")")
        #expect(try rig.ringPixels(.waiting) == 0, "a blue ring with icared stopped")
        let items = try rig.openMenu().map(\.description)
        try rig.escape()
        #expect(items.contains("Start iCare") && !items.contains("Start break now"), "menu with icared stopped: \(items)")

        // Started again from outside (the bus, as icarectl or the app would), 90 times faster.
        try prepareIcared(scale: "90", config: "Interval = 15m\nBreakDuration = 10s\n")
        _ = try rig.session.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.StartServiceByName",
                                 ["org.icare.Reminder", "0"])
        #expect(try rig.icareProperty("TimeScale") == "(<uint32 90>,)")
        // icared keeps its countdown across a restart (its saved state): still 20 minutes of real time.
        try expectRing(.waiting, label: { $0 == "20 min" }, "started again")
        // A break (10 s / 90) and then 15 min / 90: due in about 10 s.
        #expect(try rig.session.run(["icarectl", "start"]).status == 0)
        #expect(try rig.waitForProperty("State", state("due"), timeout: 20), "never due: \(now)")
        try expectRing(.due, label: { $0 == "Break due" }, "due")
        let dueMenu = try rig.openMenu().map(\.description)
        try rig.escape()
        #expect(dueMenu.contains("Snooze 5 min") && dueMenu.contains("Skip this break") && dueMenu.contains("Start break now"),
                "due: \(dueMenu)")
        try rig.choose("Snooze 5 min")
        #expect(try rig.waitForProperty("State", state("snoozed")), "Snooze: \(now)")
        try expectRing(.snoozed, label: { $0 == "1 min" }, "snoozed")
        // 5 min / 90: due again in 3.3 s.
        #expect(try rig.waitForProperty("State", state("due"), timeout: 15))
        try rig.choose("Skip this break")
        #expect(try rig.waitForProperty("State", state("waiting")), "Skip when due: \(now)")
        try expectRing(.waiting, label: { $0 == "1 min" }, "skipped when due")

        // Back to real time for what follows.
        try stopIcared()
        try prepareIcared(scale: "", config: "Interval = 20m\nBreakDuration = 20s\n")
        _ = try rig.session.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.StartServiceByName",
                                 ["org.icare.Reminder", "0"])
        // Its saved countdown was of the scaled run: a break taken and skipped starts a real 20 minutes.
        #expect(try rig.session.run(["icarectl", "start"]).status == 0)
        #expect(try rig.waitForProperty("State", state("break")))
        #expect(try rig.session.run(["icarectl", "skip"]).status == 0)
        try expectRing(.waiting, label: { $0 == "20 min" }, "real time again")
    }
}
