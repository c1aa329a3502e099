import Foundation
import Testing
import TestSupport

/// docs/privacy.md's app section proven by watching (issue 54, item 1): the real app, `icare`, on a
/// headless display against icared, goes through a person's first session under `strace`
/// (`SyscallWatch`) with a monitor on the session bus (`BusRecorder`), as PrivacyWatchTests watches
/// icared: the welcome (every page, Done), the home view, the preferences with a setting changed,
/// their page "This desktop", and the window closed, which ends the app. What it writes (files opened
/// for writing, made, renamed, removed; programs run), the sockets it connects to and the names it
/// calls, watches or owns must be the page's lists for the app, exactly. What it only reads is not
/// listed (GTK reads its theme, fonts and icons).
///
/// The session is GNOME's (a program owns GNOME Shell's name, so the app asks it about the extension),
/// and GLib's settings are read as a desktop reads them (dconf's, not the rig's in-memory ones).
@Suite(.serialized) struct AppPrivacyWatchTests {
    /// The verbs of what the app writes and runs; its reads are left out.
    static let writing: Set<String> = ["writes", "is refused", "runs"]

    @Test func thePrivacyPageListsExactlyWhatTheAppWroteAndAsked() throws {
        let rig = try AppRig(startApp: false, gnome: true, firstStart: true)
        defer { rig.stop() }
        let session = try BusRecorder(address: rig.service.bus.address)
        defer { session.stop() }
        let syscalls = try SyscallWatch()
        defer { syscalls.remove() }
        let icare = URL(fileURLWithPath: try Products.path("icare")).resolvingSymlinksInPath().path
        // GLib's settings as on a desktop: the rig's in-memory backend taken away (after strace, before the app).
        // The cache folder a person's home has, named for the libraries that look for it in the account's
        // entry rather than in HOME (Mesa's shader cache), so that they use the test's home.
        let cache = rig.service.home.appendingPathComponent(".cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let strace = try rig.startGroup(syscalls.launcher + ["/usr/bin/env", "-u", "GSETTINGS_BACKEND", icare], log: "app.log",
                                        environment: rig.appEnvironment.merging(["XDG_CACHE_HOME": cache.path]) { $1 })

        func step(_ what: String) { print("AppPrivacyWatchTests: \(what)") }
        step("the welcome")
        try AppWelcomeWindowTests.waitForPage(rig, "its first page", timeout: 20) { $0.contains { $0.role == "push button" && $0.name == "Next" } }
        for _ in 0..<8 {
            if try AppWelcomeWindowTests.shown(rig).contains(where: { $0.role == "push button" && $0.name == "Done" }) { break }
            try rig.press("Next")
            Thread.sleep(forTimeInterval: 0.3)
        }
        try rig.press("Done")
        #expect(try waitUntil(timeout: 10) { try AppWelcomeWindowTests.shown(rig).isEmpty }, "Done closes the welcome")
        step("the home view and the preferences, a setting changed")
        _ = try AppPreferencesTests.open(rig)
        try rig.setValue("Break every", 30)
        try AppPreferencesTests.expectSaved(rig, "Interval", "u 1800", "Interval = 30m")
        step("the page This desktop")
        try rig.press("This desktop", role: "page tab")
        try rig.waitForPreferences("the page's rows") { $0.contains { $0.role == "label" && $0.name == "Starting at login" } }

        // The app's connections to the bus, told by its process id while it is there.
        let app = try #require(try rig.service.ownerProcess(of: "org.icare.Reminder.Window"), "the app owns its name")
        let connections = try session.connections(of: [app])
        let accessibility = try rig.service.busctl(["call", "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress"]).stdout
        step("the window closed")
        try rig.press("Close", within: "iCare")
        #expect(waitUntil(timeout: 10) { !strace.isRunning }, "the app did not end when its window closed")

        var record = PrivacyRecord()
        session.record(connections, as: "session bus", into: &record)
        let (calls, connects) = try syscalls.record(of: icare, normalize: Self.normalizer(rig, app: icare, accessibility: accessibility))
        #expect(connects["$DBUS_SESSION_BUS_ADDRESS", default: 0] == connections.count,
                "the app connected to the session bus \(connects["$DBUS_SESSION_BUS_ADDRESS", default: 0]) times; recorded: \(connections)")
        for (kind, items) in calls.kinds {
            for (item, verbs) in items {
                for verb in verbs where kind != "files" || Self.writing.contains(verb) { record.add(kind, item, verb) }
            }
        }
        print("AppPrivacyWatchTests: what the app wrote and asked, as docs/privacy.md words it:\n\(record.text)")
        let problems = try PrivacyPage.read().compare(record, programs: ["icare"])
        if !problems.isEmpty {
            Issue.record("docs/privacy.md and the watched app disagree:\n\(problems.joined(separator: "\n"))\napp:\n\(rig.log("app.log"))")
        }
    }

    /// The rig's places in the page's words.
    static func normalizer(_ rig: AppRig, app: String, accessibility: String) -> PathNormalizer {
        let home = rig.service.home.path
        let socket = { (address: String) -> String? in
            let first = address.split(separator: ",").first.map(String.init) ?? address
            if first.hasPrefix("unix:path=") { return String(first.dropFirst("unix:path=".count)) }
            if first.hasPrefix("unix:abstract=") { return "@" + first.dropFirst("unix:abstract=".count) }
            return nil
        }
        // busctl's `s "unix:…"`.
        let a11y = accessibility.split(separator: "\"").dropFirst().first.map(String.init).flatMap(socket)
        let display = rig.display.dropFirst()
        return PathNormalizer(replacements: [
            (home + "/config", "~/.config"), (home + "/.local/state", "~/.local/state"), (home + "/runtime", "$XDG_RUNTIME_DIR"),
            (home, "~"), (socket(rig.service.bus.address) ?? rig.service.bus.address, "$DBUS_SESSION_BUS_ADDRESS"),
            ("/tmp/.X11-unix/X\(display)", "$DISPLAY"), ("@/tmp/.X11-unix/X\(display)", "@$DISPLAY"),
            (URL(fileURLWithPath: app).deletingLastPathComponent().path, "PREFIX/bin"),
        ] + (a11y.map { [($0, "(the accessibility bus)")] } ?? []))
    }
}
