import Testing
import Foundation
import TestSupport

/// Starting at login in the Flatpak (issue 55, item 4): the app's welcome asks the Background portal and
/// tells icared the answer over the bus (`SetStartsAtLogin`), as the app does; icared keeps it in its own
/// state folder and reads it at start, and does not watch that folder for the app. icared runs in a
/// sandbox it takes for the Flatpak's (`FlatpakLikeSandbox`); FlatpakWelcomeTests go through the same with
/// the real Flatpak, portal and app.
@Suite struct StartsAtLoginTests {
    static let notAsked = "Not asked yet: iCare's welcome asks the desktop to start it at login."
    static let allowed = "The desktop allows iCare to start at login."
    static let denied = "The desktop did not allow iCare to start at login."

    /// icared in the Flatpak-like sandbox; `before` prepares its home first.
    static func sandboxed(_ before: (ServiceHarness) throws -> Void = { _ in }) throws -> ServiceHarness {
        let s = try ServiceHarness(start: false)
        s.bare = true
        s.launcher = try FlatpakLikeSandbox.launcher(home: s.home)
        try before(s)
        try s.start()
        return s
    }

    static func limitsAutostart(_ s: ServiceHarness) throws -> Bool { try s.property("SandboxLimits").contains("\"autostart\"") }
    static func loginWords(_ s: ServiceHarness) throws -> String? { try s.capabilities()["login"]?.words }

    static func gdbus(_ s: ServiceHarness, _ args: [String]) throws -> ProcessResult {
        try Subprocess.run(["gdbus", "call", "--session", "--dest", "org.icare.Reminder", "--object-path", "/org/icare/Reminder",
                            "--method", "org.icare.Reminder.SetStartsAtLogin"] + args, environment: s.environment)
    }

    @Test func theAppsAnswerReachesTheSandboxedIcaredOverTheBus() throws {
        let s = try Self.sandboxed()
        defer { s.stop() }
        #expect(try s.property("SandboxLimits").contains("\"sleep\""), "icared takes the sandbox for the Flatpak's")
        #expect(try Self.limitsAutostart(s), "not asked yet")
        #expect(try Self.loginWords(s) == Self.notAsked)
        let kept = s.stateDirectory + "/starts-at-login"
        #expect(!FileManager.default.fileExists(atPath: kept))

        let yes = try s.call("SetStartsAtLogin", "b", "true")
        #expect(yes.status == 0, "\(yes)")
        #expect(try !Self.limitsAutostart(s))
        #expect(try Self.loginWords(s) == Self.allowed)
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "yes\n", "kept in icared's own state folder, in 0.7's words")
        #expect(s.log.contains("The app says the desktop allows iCare to start at login."), "\(s.log)")

        // The folder is icared's own: a file written there now (as 0.7's app did) is not followed…
        try "no\n".write(toFile: kept, atomically: true, encoding: .utf8)
        Thread.sleep(forTimeInterval: 1)
        #expect(try !Self.limitsAutostart(s), "icared followed a file in its state folder")
        #expect(try Self.loginWords(s) == Self.allowed)
        // …and read at the next start (bubblewrap does not pass SIGTERM on; icared dies with it).
        s.kill9()
        #expect(try waitUntil(timeout: 5) { try !s.nameHasOwner() })
        try s.start()
        #expect(try Self.limitsAutostart(s))
        #expect(try Self.loginWords(s) == Self.denied)

        // "Allow" after all, then "Don't allow": each answer over the bus, each kept.
        #expect(try s.call("SetStartsAtLogin", "b", "true").status == 0)
        #expect(try Self.loginWords(s) == Self.allowed)
        #expect(try s.call("SetStartsAtLogin", "b", "false").status == 0)
        #expect(try Self.limitsAutostart(s))
        #expect(try Self.loginWords(s) == Self.denied)
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "no\n")
    }

    /// A person upgrading from 0.7, whose app wrote `starts-at-login` (and `welcome-seen`) in icared's
    /// state folder itself: icared reads the answer at its first start after the upgrade.
    @Test(arguments: [("yes\n", true), ("no\n", false)])
    func anAnswerWrittenBy07IsHonouredAfterTheUpgrade(_ file: String, _ allowed: Bool) throws {
        let s = try Self.sandboxed { s in
            try file.write(toFile: s.stateDirectory + "/starts-at-login", atomically: true, encoding: .utf8)
            #expect(FileManager.default.createFile(atPath: s.stateDirectory + "/welcome-seen", contents: Data()))
        }
        defer { s.stop() }
        #expect(try Self.limitsAutostart(s) == !allowed)
        #expect(try Self.loginWords(s) == (allowed ? Self.allowed : Self.denied))
        #expect(try String(contentsOfFile: s.stateDirectory + "/starts-at-login", encoding: .utf8) == file, "kept as it was")
    }

    /// Outside the Flatpak (here under its unit's sandbox) the answer means nothing: refused by name with one
    /// sentence, and nothing is written. An answer of another shape is refused everywhere.
    @Test func callsOutsideTheFlatpakOrOfAnotherShapeAreRefused() throws {
        let unit = try ServiceHarness()
        defer { unit.stop() }
        let r = try Self.gdbus(unit, ["true"])
        #expect(r.status != 0 && r.stderr.contains("org.freedesktop.DBus.Error.NotSupported")
                && r.stderr.contains("Only iCare's Flatpak needs the desktop's answer on starting at login."), "\(r)")
        #expect(!FileManager.default.fileExists(atPath: unit.stateDirectory + "/starts-at-login"))
        #expect(try unit.capabilities()["login"]?.words == "Started by systemd, as icared.service.")

        let s = try Self.sandboxed()
        defer { s.stop() }
        // dbus-send sends what it is given (gdbus would convert the arguments to the introspected signature).
        for args in [["string:yes"], ["uint32:1"], ["boolean:true", "boolean:true"], []] {
            let wrong = try Subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.icare.Reminder", "/org/icare/Reminder",
                                            "org.icare.Reminder.SetStartsAtLogin"] + args, environment: s.environment)
            #expect(wrong.status != 0 && wrong.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(args): \(wrong)")
        }
        #expect(try Self.limitsAutostart(s), "nothing was taken for an answer")
        #expect(!FileManager.default.fileExists(atPath: s.stateDirectory + "/starts-at-login"))
    }
}
