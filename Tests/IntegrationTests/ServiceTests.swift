import Testing
import Foundation
import TestSupport

/// The real icared on a private bus, driven by busctl and gdbus.
@Suite(.serialized) struct ServiceTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let tMax = String(UInt64(Int64.max))

    func nowMicros() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1_000_000) }

    @Test func introspectionMatchesTheCheckedInXML() throws {
        let s = try ServiceHarness()
        let r = try s.busctl(["call", "org.icare.Reminder", "/org/icare/Reminder", "org.freedesktop.DBus.Introspectable", "Introspect", "--json=short"])
        #expect(r.status == 0, "\(r)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let xml = (json?["data"] as? [Any])?.first as? String ?? ""
        let file = try String(contentsOf: Self.repo.appendingPathComponent("dbus/org.icare.Reminder.xml"), encoding: .utf8)
        #expect(xml == file, "the running service's Introspect differs from dbus/org.icare.Reminder.xml")
        // The examples of docs/interface.md work as written.
        let intro = try s.busctl(["introspect", "org.icare.Reminder", "/org/icare/Reminder"])
        #expect(intro.stdout.contains(".StartBreak"), "\(intro)")
        #expect(intro.stdout.contains(".NextBreak"))
        let tree = try s.busctl(["tree", "--list", "org.icare.Reminder"])
        #expect(tree.stdout.contains("/org/icare/Reminder"), "\(tree)")
    }

    @Test func everyMethodInEveryStateItAllows() throws {
        let s = try ServiceHarness()
        #expect(try s.string("State") == "waiting")
        let next = try s.number("NextBreak")
        let now = nowMicros()
        #expect(next > now + 1_190_000_000 && next <= now + 1_200_000_000, "NextBreak \(next) is not about 20 min away")

        #expect(try s.call("StartBreak").status == 0)
        #expect(try s.string("State") == "break")
        let ends = try s.number("BreakEnds")
        #expect(ends > now && ends <= nowMicros() + 20_000_000)
        let again = try s.call("StartBreak")
        #expect(again.status != 0)
        #expect(again.stderr.contains("break"), "\(again)")
        #expect(try s.busctl(["call", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "StartBreak", "--json=short"]).stderr.isEmpty == false)

        let snooze = try s.call("Snooze", "u", "600")
        #expect(snooze.status == 0, "\(snooze)")
        #expect(try s.string("State") == "snoozed")
        let until = UInt64(snooze.stdout.split(separator: " ").last!.trimmingCharacters(in: .whitespacesAndNewlines))!
        #expect(try until == s.number("NextBreak"))
        #expect(try s.number("CompletedToday") == 0)
        #expect(try s.number("SkippedToday") == 0)

        let short = try s.call("Snooze", "u", "30")
        #expect(short.stderr.contains("60"), "\(short)")
        #expect(try s.call("Snooze", "u", "0").status == 0)
        let defaultSnooze = try s.number("NextBreak")
        #expect(defaultSnooze > nowMicros() + 290_000_000 && defaultSnooze <= nowMicros() + 300_000_000)

        #expect(try s.call("Skip").status == 0)
        #expect(try s.number("SkippedToday") == 1)
        #expect(try s.string("State") == "waiting")
        // Skip in waiting skips the upcoming break.
        #expect(try s.call("Skip").status == 0)
        #expect(try s.number("SkippedToday") == 2)

        let pause = try s.call("Pause", "u", "1800")
        #expect(pause.status == 0)
        #expect(try s.string("State") == "paused")
        #expect(try s.string("PauseReason") == "user")
        let pausedUntil = try s.number("PausedUntil")
        #expect(pause.stdout == "t \(pausedUntil)\n")
        #expect(try s.number("NextBreak") == pausedUntil + 1_200_000_000)
        for method in ["Skip"] {
            let r = try s.call(method)
            #expect(r.stderr.contains("paused"), "\(method): \(r)")
        }
        let snoozePaused = try s.call("Snooze", "u", "600")
        #expect(snoozePaused.stderr.contains("paused"), "\(snoozePaused)")
        let tooLong = try s.call("Pause", "u", "86401")
        #expect(tooLong.stderr.contains("86400"), "\(tooLong)")
        #expect(try s.call("Pause", "u", "0").stdout == "t 0\n")
        #expect(try s.number("PausedUntil") == 0)
        #expect(try s.number("NextBreak") == 0)

        #expect(try s.call("Resume").status == 0)
        #expect(try s.string("State") == "waiting")
        #expect(try s.string("PauseReason") == "")
        #expect(try s.call("Resume").status == 0, "Resume when not paused is a no-op")

        let history = try s.call("GetHistory", "tt", "0", Self.tMax)
        #expect(history.stdout.hasPrefix("a(tsu) 2 "), "\(history)")
        #expect(history.stdout.contains("\"skipped\" 0"))
        let backwards = try s.call("GetHistory", "tt", "10", "5")
        #expect(backwards.stderr.contains("from <= to"), "\(backwards)")
    }

    @Test func errorsAreNamedAndSayWhatToDo() throws {
        let s = try ServiceHarness()
        let env = s.environment
        func gdbus(_ args: [String]) throws -> ProcessResult {
            try Subprocess.run(["gdbus", "call", "--session", "--dest", "org.icare.Reminder", "--object-path", "/org/icare/Reminder"] + args, environment: env)
        }
        let cases: [([String], String)] = [
            (["--method", "org.icare.Reminder.Snooze", "10"], "org.freedesktop.DBus.Error.InvalidArgs"),
            (["--method", "org.icare.Reminder.Nope"], "org.freedesktop.DBus.Error.UnknownMethod"),
            (["--method", "org.icare.Nope.Thing"], "org.freedesktop.DBus.Error.UnknownInterface"),
            (["--method", "org.freedesktop.DBus.Properties.Get", "org.icare.Reminder", "Nope"], "org.freedesktop.DBus.Error.UnknownProperty"),
            (["--method", "org.freedesktop.DBus.Properties.Set", "org.icare.Reminder", "State", "<'due'>"], "org.freedesktop.DBus.Error.PropertyReadOnly"),
            (["--method", "org.freedesktop.DBus.Properties.Set", "org.icare.Reminder", "Interval", "<uint32 100>"], "org.freedesktop.DBus.Error.InvalidArgs"),
            (["--method", "org.freedesktop.DBus.Properties.Set", "org.icare.Reminder", "Interval", "<'20m'>"], "org.freedesktop.DBus.Error.InvalidArgs"),
            (["--method", "org.freedesktop.DBus.Properties.Set", "org.icare.Reminder", "ActiveHours", "<'25:00-10:00'>"], "org.freedesktop.DBus.Error.InvalidArgs"),
            (["--method", "org.freedesktop.DBus.Properties.Set", "org.icare.Reminder", "DndPolicy", "<'sometimes'>"], "org.freedesktop.DBus.Error.InvalidArgs"),
            (["--method", "org.freedesktop.DBus.Properties.Set", "org.icare.Reminder", "BreakDuration", "<uint32 31>"], "org.freedesktop.DBus.Error.InvalidArgs"),
            (["--method", "org.freedesktop.DBus.Properties.Set", "org.icare.Reminder", "SnoozeDuration", "<uint32 59>"], "org.freedesktop.DBus.Error.InvalidArgs"),
            (["--method", "org.icare.Reminder.GetHistory", "5", "1"], "org.freedesktop.DBus.Error.InvalidArgs"),
        ]
        for (args, name) in cases {
            let r = try gdbus(args)
            #expect(r.status != 0, "\(args)")
            #expect(r.stderr.contains(name), "\(args) gave \(r.stderr)")
        }
        // A wrong signature (gdbus checks types itself, busctl does not).
        let wrong = try s.call("Snooze", "s", "x")
        #expect(wrong.stderr.contains("takes arguments of type 'u', not 's'"), "\(wrong)")
        let range = try gdbus(["--method", "org.freedesktop.DBus.Properties.Set", "org.icare.Reminder", "Interval", "<uint32 100>"])
        #expect(range.stderr.contains("Interval must be between 900 and 2700 seconds"), "\(range)")
        // Nothing was changed by the refused writes.
        #expect(try s.number("Interval") == 1200)
        #expect(try s.string("DndPolicy") == "pause")
        // The service is still alive and answering.
        #expect(try s.string("State") == "waiting")
        // InvalidState carries the project's error name.
        _ = try s.call("Pause", "u", "60")
        let r = try gdbus(["--method", "org.icare.Reminder.Skip"])
        #expect(r.stderr.contains("org.icare.Reminder.Error.InvalidState"), "\(r)")
    }

    @Test func propertiesReadWriteAndAnnounce() throws {
        let s = try ServiceHarness()
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }
        let all = try Subprocess.run(["gdbus", "call", "--session", "--dest", "org.icare.Reminder", "--object-path", "/org/icare/Reminder",
                                      "--method", "org.freedesktop.DBus.Properties.GetAll", "org.icare.Reminder"], environment: s.environment)
        for name in ["State", "PauseReason", "NextBreak", "BreakEnds", "PausedUntil", "CompletedToday", "SkippedToday", "DoNotDisturb",
                     "DoNotDisturbSource", "Busy", "BusySource", "BusyReason", "DesktopEyeBreaks", "Version", "TimeScale", "Interval", "BreakDuration", "SnoozeDuration", "ActiveHours", "WeekdaysOnly", "DndPolicy", "Sound", "BusyPolicy", "StatusItem"] {
            #expect(all.stdout.contains("'\(name)': <"), "GetAll lacks \(name): \(all.stdout)")
        }
        // Outside a Flatpak sandbox nothing is kept from iCare.
        #expect(all.stdout.contains("'SandboxLimits': <@as []>"), "\(all.stdout)")
        // An empty interface name means org.icare.Reminder.
        let empty = try s.busctl(["call", "org.icare.Reminder", "/org/icare/Reminder", "org.freedesktop.DBus.Properties", "Get", "ss", "", "Interval"])
        #expect(empty.stdout == "v u 1200\n", "\(empty)")

        let before = try s.number("NextBreak")
        #expect(try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "Interval", "u", "1500"]).status == 0)
        #expect(try s.number("Interval") == 1500)
        #expect(try s.number("NextBreak") == before + 300_000_000, "changing Interval moves NextBreak to the interval start + the new value")
        for (name, sig, value, shown) in [("BreakDuration", "u", "10", "u 10"), ("SnoozeDuration", "u", "600", "u 600"),
                                          ("ActiveHours", "s", "22:00-06:00", "s \"22:00-06:00\""), ("WeekdaysOnly", "b", "true", "b true"),
                                          ("DndPolicy", "s", "defer", "s \"defer\""), ("Sound", "b", "false", "b false"),
                                          ("BusyPolicy", "s", "pause", "s \"pause\"")] {
            let r = try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", name, sig, value])
            #expect(r.status == 0, "\(name): \(r)")
            #expect(try s.property(name) == shown)
        }
        #expect(waitUntil {
            let changed = Set(monitor.changedProperties)
            return ["Interval", "NextBreak", "BreakDuration", "SnoozeDuration", "ActiveHours", "WeekdaysOnly", "DndPolicy", "Sound", "BusyPolicy"].allSatisfy(changed.contains)
        }, "PropertiesChanged seen: \(monitor.changedProperties)")
        #expect(try s.string("Version").isEmpty == false)
    }

    @Test func signalsGoOutForEveryBreakEvent() throws {
        let s = try ServiceHarness()
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }
        _ = try s.call("StartBreak")
        _ = try s.call("Snooze", "u", "600")
        _ = try s.call("Skip")
        #expect(waitUntil { !monitor.signals("BreakStarted").isEmpty && !monitor.signals("BreakSnoozed").isEmpty && !monitor.signals("BreakSkipped").isEmpty },
                "\(monitor.messages.map { $0["member"] ?? "" })")
        #expect(waitUntil { monitor.changedProperties.contains("State") && monitor.changedProperties.contains("SkippedToday") })
        // gdbus monitor, as in docs/interface.md, sees them too.
        let gm = Pipe()
        let gdbusMonitor = try Subprocess.start(["gdbus", "monitor", "--session", "--dest", "org.icare.Reminder"], environment: s.environment, stdout: gm)
        defer { Subprocess.kill9(gdbusMonitor) }
        let seen = Box("")
        gm.fileHandleForReading.readabilityHandler = { h in seen.value += String(decoding: h.availableData, as: UTF8.self) }
        #expect(try waitUntil(timeout: 10) {
            _ = try s.call("Pause", "u", "60")
            _ = try s.call("Resume")
            return seen.value.contains("PropertiesChanged")
        }, "gdbus monitor saw: \(seen.value)")
        gm.fileHandleForReading.readabilityHandler = nil
    }

    @Test func aShortBreakCountsDownAndLandsInHistory() throws {
        let s = try ServiceHarness()
        let monitor = try BusMonitor(environment: s.environment) { _ = try s.property("State") }
        defer { monitor.stop() }
        #expect(try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "BreakDuration", "u", "10"]).status == 0)
        let started = nowMicros()
        #expect(try s.call("StartBreak").status == 0)
        let ends = try s.number("BreakEnds")
        #expect(ends >= started + 9_000_000 && ends <= started + 11_000_000)
        #expect(try waitUntil(timeout: 20, interval: 0.2) { try s.number("CompletedToday") == 1 }, "log:\n\(s.log)")
        #expect(try s.string("State") == "waiting")
        let history = try s.call("GetHistory", "tt", String(started), Self.tMax)
        #expect(history.stdout.hasPrefix("a(tsu) 1 "), "\(history)")
        #expect(history.stdout.contains("\"completed\" 10"), "\(history)")
        #expect(waitUntil { monitor.signals("BreakCompleted").count == 1 })
        let next = try s.number("NextBreak")
        #expect(next >= ends + 1_200_000_000 - 1_000_000 && next <= ends + 1_200_000_000 + 1_000_000, "a full interval after the break")
    }

    @Test func lifecycleLikeASystemdDaemon() throws {
        let icared = try Products.path("icared")
        let help = try Subprocess.run([icared, "--help"])
        #expect(help.status == 0 && help.stdout.contains("Usage: icared"))
        let version = try Subprocess.run([icared, "--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("icared "))
        let bad = try Subprocess.run([icared, "--frobnicate"])
        #expect(bad.status == 64 && bad.stderr.contains("unknown option"))

        let s = try ServiceHarness()
        // A second instance on the same bus says the name is taken and exits 1.
        let second = try Subprocess.run([icared, "--log-stderr"], environment: s.environment, timeout: 10)
        #expect(second.status == 1, "\(second)")
        #expect(second.stderr.contains("already owns org.icare.Reminder"), "\(second)")
        #expect(try s.string("State") == "waiting", "the first instance still serves")
        #expect(try s.signal(SIGTERM) == 0)
        #expect(s.log.contains("Stopped."))
        try s.start()
        #expect(try s.signal(SIGINT) == 0)
        // A lost bus ends it with a non-zero status.
        try s.start()
        s.bus.stop()
        let p = s.process!
        #expect(waitUntil(timeout: 10) { !p.isRunning })
        #expect(p.terminationStatus != 0)
        #expect(s.log.contains("Lost the connection"))
        // No bus at all: a clear failure.
        let nobus = try Subprocess.run([icared, "--log-stderr"], environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"], timeout: 10)
        #expect(nobus.status == 1 && nobus.stderr.contains("Could not start"), "\(nobus)")
    }

    /// The icared and icarectl the tests run are the sanitizer's when scripts/test says so
    /// (ICARE_SANITIZER), and the plain build's otherwise: a sanitizer run that quietly ran the
    /// plain service would find nothing (docs/hostile.md, "The sanitizers").
    @Test func theProductsAreTheSanitizersWhenOneIsNamed() throws {
        let sanitizer = ProcessInfo.processInfo.environment["ICARE_SANITIZER"]
        for product in ["icared", "icarectl"] {
            let path = try Products.path(product)
            let binary = try Data(contentsOf: URL(fileURLWithPath: path))
            // A symbol each instrumented binary calls and the other sanitizer's runtime does not name.
            for (name, symbol) in [("address", "__asan_version_mismatch_check"), ("thread", "__tsan_func_entry")] {
                let instrumented = binary.range(of: Data(symbol.utf8)) != nil
                #expect(instrumented == (sanitizer == name), "\(product) at \(path), ICARE_SANITIZER=\(sanitizer ?? "")")
            }
        }
    }
}
