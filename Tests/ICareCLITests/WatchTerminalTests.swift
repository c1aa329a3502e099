import Testing
import Foundation
import TestSupport

/// `icarectl watch` in a real terminal: tmux runs it, `capture-pane` reads
/// the screen, `send-keys` types. tmux missing is a failure, not a skip.
final class TmuxPane: @unchecked Sendable {
    let tmux: String
    let socket = "icarectl-test-\(UUID().uuidString.prefix(8))"

    /// Runs `command` in a new 80×24 session; after it ends the pane shows
    /// `EXITED <status>` and the terminal's icanon/echo modes, then waits.
    init(command: String) throws {
        tmux = try Subprocess.which("tmux")
        let script = "\(command); echo \"EXITED $?\"; stty -a | tr ' ;' '\\n\\n' | grep -x -E -e '-?icanon' -e '-?echo' | tr '\\n' ' '; echo; sleep 600"
        // Not Subprocess.run: the tmux server it forks would hold the output pipes open forever.
        let client = try Subprocess.start([tmux, "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "80", "-y", "24", "sh", "-c", script])
        guard waitUntil(timeout: 10, { !client.isRunning }) else {
            Subprocess.kill9(client)
            throw HarnessError("tmux new-session did not return")
        }
        client.waitUntilExit()
        guard client.terminationStatus == 0 else { throw HarnessError("tmux new-session failed with status \(client.terminationStatus)") }
    }

    var screen: String { (try? Subprocess.run([tmux, "-L", socket, "capture-pane", "-p", "-t", "t"]).stdout) ?? "" }

    func send(_ keys: String...) throws {
        try Subprocess.run([tmux, "-L", socket, "send-keys", "-t", "t"] + keys)
    }

    /// The line after `label` on the screen.
    func line(after label: String) -> String? {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let i = lines.firstIndex(of: label), i + 1 < lines.count else { return nil }
        return lines[i + 1]
    }

    func kill() { _ = try? Subprocess.run([tmux, "-L", socket, "kill-server"]) }
}

@Suite(.serialized) struct WatchTerminalTests {
    func watchCommand(_ h: ServiceHarness) throws -> String {
        var env = h.environment
        env["TZ"] = "UTC"
        let assignments = env.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        return "env \(assignments) \(try Products.path("icarectl")) watch"
    }

    @Test func countdownTicksAndChangesArriveWithoutAKey() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        let pane = try TmuxPane(command: try watchCommand(h))
        defer { pane.kill() }
        #expect(waitUntil(timeout: 10) { pane.screen.contains("Next break in") }, "\(pane.screen)")
        let first = pane.line(after: "Next break in")
        #expect(first?.range(of: #"^(19|20):\d\d$"#, options: .regularExpression) != nil, "\(pane.screen)")
        // Redrawn once a second.
        #expect(waitUntil(timeout: 3) { pane.line(after: "Next break in").map { $0 != first && $0.hasPrefix("19:") } == true }, "\(pane.screen)")
        #expect(pane.screen.contains("State           waiting"))
        #expect(pane.screen.contains("Today           0 completed, 0 skipped"))

        // A change made elsewhere shows at once, with no key pressed.
        try h.call("Pause", "u", "0")
        #expect(waitUntil(timeout: 2) { pane.screen.contains("State           paused by you") }, "\(pane.screen)")
        #expect(pane.screen.contains("until you resume"))

        // The break's own countdown while it runs.
        try h.call("StartBreak")
        #expect(waitUntil(timeout: 2) { pane.screen.contains("Break: look at something 20 feet (6 m) away") }, "\(pane.screen)")
        let breakLeft = pane.line(after: "Break: look at something 20 feet (6 m) away")
        #expect(breakLeft?.hasPrefix("0:") == true)
        #expect(waitUntil(timeout: 3) { pane.line(after: "Break: look at something 20 feet (6 m) away").map { $0 != breakLeft } == true })

        // Keys act: k skips the break.
        try pane.send("k")
        #expect(waitUntil(timeout: 3) { pane.screen.contains("Skipped.") }, "\(pane.screen)")
        #expect(waitUntil(timeout: 3) { pane.screen.contains("0 completed, 1 skipped") })

        // q leaves and gives the terminal back as it was.
        try pane.send("q")
        #expect(waitUntil(timeout: 5) { pane.screen.contains("EXITED 0") }, "\(pane.screen)")
        #expect(waitUntil(timeout: 2) { pane.screen.contains("icanon echo") }, "\(pane.screen)")
        #expect(!pane.screen.contains("Next break in"))
    }

    @Test func ctrlCRestoresTheTerminal() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        let pane = try TmuxPane(command: try watchCommand(h))
        defer { pane.kill() }
        #expect(waitUntil(timeout: 10) { pane.screen.contains("Next break in") }, "\(pane.screen)")
        try pane.send("C-c")
        #expect(waitUntil(timeout: 5) { pane.screen.contains("EXITED 0") }, "\(pane.screen)")
        #expect(waitUntil(timeout: 2) { pane.screen.contains("icanon echo") }, "\(pane.screen)")
    }

    @Test func followsTheServiceWhenItStops() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        let pane = try TmuxPane(command: try watchCommand(h))
        defer { pane.kill() }
        #expect(waitUntil(timeout: 10) { pane.screen.contains("Next break in") })
        h.kill9()
        #expect(waitUntil(timeout: 5) { pane.screen.contains("iCare is not running.") }, "\(pane.screen)")
        try h.start()
        #expect(waitUntil(timeout: 5) { pane.screen.contains("Next break in") }, "\(pane.screen)")
        try pane.send("q")
        #expect(waitUntil(timeout: 5) { pane.screen.contains("EXITED 0") })
    }
}
