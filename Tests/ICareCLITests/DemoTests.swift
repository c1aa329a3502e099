import Testing
import Foundation
import TestSupport

/// The two ways to see iCare work without a desktop (docs/using.md, "Try it
/// in a minute"; docs/install.md, "From the source tree"), run as a
/// person would in a terminal (tmux): `make demo` (scripts/demo) and
/// `scripts/run` where no session bus is reachable. Both run this build's
/// binaries (ICARE_BIN_DIR) instead of a release build. tmux missing is a
/// failure, not a skip.
@Suite struct DemoTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fresh folder for the scripts' TMPDIR, so their throwaway folders can be found (and are seen to go).
    func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("icare-demo-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    func entries(_ dir: URL, prefix: String) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { $0.hasPrefix(prefix) }.map { dir.appendingPathComponent($0) }
    }

    /// Whether a bus answers at `address`.
    func busAnswers(_ address: String) -> Bool {
        let r = try? Subprocess.run(["dbus-send", "--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus", "/",
                                     "org.freedesktop.DBus.GetId"], timeout: 5)
        return r?.status == 0
    }

    /// Runs a repository script in a pane with this build's binaries and no session bus of the test's.
    func pane(_ script: String, _ arguments: String = "", tmp: URL, environment: [String: String] = [:]) throws -> TmuxPane {
        var env = ["TMPDIR": tmp.path, "ICARE_BIN_DIR": Products.binDirectory, "TZ": "UTC"]
        for (k, v) in environment { env[k] = v }
        _ = try Products.path("icared")
        let assignments = env.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        return try TmuxPane(command: "env -u DBUS_SESSION_BUS_ADDRESS \(assignments) '\(Self.repo.path)/\(script)' \(arguments)")
    }

    @Test func theDemoComesDueAndABreakStartedFromTheWatchViewCompletes() throws {
        let tmp = try scratch()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let demo = try pane("scripts/demo", tmp: tmp)
        defer { demo.kill() }
        #expect(waitUntil(timeout: 15) { demo.screen.contains("Next break in") }, "\(demo.screen)")
        let folders = entries(tmp, prefix: "icare-demo.")
        try #require(folders.count == 1, "\(folders)")
        let address = try String(contentsOf: folders[0].appendingPathComponent("bus-address"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(busAnswers(address))
        // 60 times faster: the 20-minute interval passes in 20 s.
        #expect(demo.line(after: "Next break in")?.hasPrefix("0:") == true, "\(demo.screen)")
        #expect(waitUntil(timeout: 25) { demo.screen.contains("Time for a break") }, "\(demo.screen)")
        #expect(demo.screen.contains("State           due"))

        // s starts the break, through the service: the view shows what its signals say.
        try demo.send("s")
        let title = "Break: look at something 20 feet (6 m) away"
        #expect(waitUntil(timeout: 3) { demo.screen.contains(title) && demo.screen.contains("State           on a break") }, "\(demo.screen)")
        let first = demo.line(after: title)
        #expect(first?.range(of: #"^0:(19|20)$"#, options: .regularExpression) != nil, "\(demo.screen)")
        // The countdown moves (on a loaded machine the screen may be read seconds later: any second below the first).
        #expect(waitUntil(timeout: 10) { demo.line(after: title).map { $0 != first && $0.hasPrefix("0:") } == true }, "\(demo.screen)")
        // The break keeps its real 20 seconds, then the next interval starts.
        #expect(waitUntil(timeout: 25) { demo.screen.contains("Today           1 completed, 0 skipped") }, "\(demo.screen)")
        #expect(demo.screen.contains("Next break in") || demo.screen.contains("Time for a break"))

        // The history on the demo's bus says the same.
        let history = try Subprocess.run([try Products.path("icarectl"), "history", "today", "--json"],
                                         environment: ["DBUS_SESSION_BUS_ADDRESS": address, "TZ": "UTC"], timeout: 10)
        #expect(history.status == 0, "\(history)")
        let json = try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any]
        #expect(json?["completed"] as? Int == 1, "\(history.stdout)")
        let breaks = json?["breaks"] as? [[String: Any]] ?? []
        #expect(breaks.filter { $0["outcome"] as? String == "completed" }.count == 1, "\(history.stdout)")
        #expect(breaks.first { $0["outcome"] as? String == "completed" }?["seconds"] as? Int == 20)

        // q ends the demo: icared and its bus stop, the throwaway folder goes.
        try demo.send("q")
        #expect(waitUntil(timeout: 10) { demo.screen.contains("EXITED 0") }, "\(demo.screen)")
        #expect(demo.screen.contains("iCare demo over"))
        #expect(!FileManager.default.fileExists(atPath: folders[0].path), "the demo's folder is left behind")
        #expect(!busAnswers(address), "the demo's bus still runs")
    }

    @Test func runWithoutASessionBusStartsAPrivateOneAndLogsTheReminder() throws {
        let tmp = try scratch()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let runtime = tmp.appendingPathComponent("runtime")   // no `bus` socket in it
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let environment = [
            "XDG_RUNTIME_DIR": runtime.path, "XDG_CONFIG_HOME": tmp.appendingPathComponent("config").path,
            "XDG_STATE_HOME": tmp.appendingPathComponent("state").path,
        ]
        // Read as a transcript: the service's log may scroll the first lines off a 24-row screen.
        let run = try pane("scripts/run", "--time-scale 600", tmp: tmp, environment: environment)
        defer { run.kill() }
        #expect(waitUntil(timeout: 10) { run.transcript.contains("No session bus here") }, "\(run.transcript)")
        // The bus lives at one address in the runtime folder, and the printed line names it.
        let folder = runtime.appendingPathComponent("icare-run")
        let address = "unix:path=" + folder.appendingPathComponent("bus").path
        #expect(run.transcript.replacingOccurrences(of: "\n", with: "").contains("export DBUS_SESSION_BUS_ADDRESS='\(address)'"), "\(run.transcript)")
        #expect(waitUntil(timeout: 10) {
            (try? Subprocess.run([try Products.path("icarectl"), "status"], environment: ["DBUS_SESSION_BUS_ADDRESS": address], timeout: 10))?.status == 0
        })
        // No notification server on a private bus: the reminder shows on the terminal (2 s at 600 times).
        #expect(waitUntil(timeout: 10) { run.transcript.contains("icared: Time for an eye break") }, "\(run.transcript)")

        // Ctrl-C stops icared, and the private bus goes with it.
        try run.send("C-c")
        #expect(waitUntil(timeout: 10) { run.transcript.contains("EXITED 0") }, "\(run.transcript)")
        #expect(run.transcript.contains("Stopped."))
        #expect(waitUntil(timeout: 5) { !busAnswers(address) }, "the private bus still runs")
        #expect(!FileManager.default.fileExists(atPath: folder.path), "the bus folder is left behind")

        // Started again: the same address, so the export in the other terminal still works.
        let again = try pane("scripts/run", tmp: tmp, environment: environment)
        defer { again.kill() }
        #expect(waitUntil(timeout: 10) { again.transcript.contains("No session bus here") }, "\(again.transcript)")
        #expect(again.transcript.replacingOccurrences(of: "\n", with: "").contains("export DBUS_SESSION_BUS_ADDRESS='\(address)'"), "\(again.transcript)")
        #expect(waitUntil(timeout: 10) {
            (try? Subprocess.run([try Products.path("icarectl"), "status"], environment: ["DBUS_SESSION_BUS_ADDRESS": address], timeout: 10))?.status == 0
        }, "icarectl with the first run's address reaches the restarted service")
        try again.send("C-c")
        #expect(waitUntil(timeout: 10) { again.transcript.contains("EXITED 0") }, "\(again.transcript)")
        #expect(waitUntil(timeout: 5) { !busAnswers(address) }, "the private bus still runs")
    }
}
