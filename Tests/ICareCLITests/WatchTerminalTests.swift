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
        // The wrapper survives Ctrl-C like an interactive shell (a trap, not SIG_IGN, which the child would inherit).
        let script = "trap true INT; \(command); echo \"EXITED $?\"; stty -a | tr ' ;' '\\n\\n' | grep -x -E -e '-?icanon' -e '-?echo' | tr '\\n' ' '; echo; sleep 600"
        // Not Foundation's Process: the tmux server it forks would inherit
        // the pipes and the socket Process watches for the child's exit.
        let status = try spawnDetached([tmux, "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "80", "-y", "24", "sh", "-c", script])
        guard status == 0 else { throw HarnessError("tmux new-session failed with status \(status)") }
    }

    var screen: String { (try? Subprocess.run([tmux, "-L", socket, "capture-pane", "-p", "-t", "t"]).stdout) ?? "" }
    /// Everything printed so far, scrolled-off lines included, wrapped lines joined.
    var transcript: String { (try? Subprocess.run([tmux, "-L", socket, "capture-pane", "-p", "-J", "-S", "-", "-t", "t"]).stdout) ?? "" }

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

/// Runs a program with /dev/null for stdio, no other inherited descriptors
/// and an empty signal mask (posix_spawn); waits for it and returns its status.
func spawnDetached(_ args: [String]) throws -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    // Close every other inherited descriptor before exec (glibc's closefrom action is not imported;
    // bash, as dash only redirects single-digit descriptors).
    let closer = "for fd in $(ls /proc/$$/fd); do if [ \"$fd\" -gt 2 ]; then eval \"exec $fd>&-\"; fi; done; exec \"$@\""
    let argv = ["/bin/bash", "-c", closer, "bash"] + args
    let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, "/bin/bash", &actions, &attributes, cArgs, environ)
    guard rc == 0 else { throw HarnessError("posix_spawn \(args[0]) failed: \(rc)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status >> 8) & 0xff
}

/// Every wait is bounded at 10 s and ends as soon as the screen shows what it waits for: a loaded
/// machine (CI shares two cores) slows tmux and the view, not what they must show.
@Suite(.serialized) struct WatchTerminalTests {
    func watchCommand(_ h: ServiceHarness) throws -> String {
        var env = h.environment
        env["TZ"] = "UTC"
        let assignments = env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.shellQuoted)" }.joined(separator: " ")
        return "env \(assignments) \(try Products.path("icarectl").shellQuoted) watch"
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
        #expect(waitUntil(timeout: 10) { pane.line(after: "Next break in").map { $0 != first && $0.hasPrefix("19:") } == true }, "\(pane.screen)")
        #expect(pane.screen.contains("State           waiting"))
        #expect(pane.screen.contains("Today           0 completed, 0 skipped"))

        // A change made elsewhere shows at once, with no key pressed.
        try h.call("Pause", "u", "0")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("State           paused by you") }, "\(pane.screen)")
        #expect(pane.screen.contains("until you resume"))

        // The break's own countdown while it runs.
        try h.call("StartBreak")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("Break: look at something 20 feet (6 m) away") }, "\(pane.screen)")
        let breakLeft = pane.line(after: "Break: look at something 20 feet (6 m) away")
        #expect(breakLeft?.hasPrefix("0:") == true)
        #expect(waitUntil(timeout: 10) { pane.line(after: "Break: look at something 20 feet (6 m) away").map { $0 != breakLeft } == true })

        // Keys act: k skips the break.
        try pane.send("k")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("Skipped.") }, "\(pane.screen)")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("0 completed, 1 skipped") })

        // q leaves and gives the terminal back as it was.
        try pane.send("q")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("EXITED 0") }, "\(pane.screen)")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("icanon echo") }, "\(pane.screen)")
        #expect(!pane.screen.contains("Next break in"))
    }

    /// Every key of the footer acts through the service; the view then shows
    /// what the service's signals say. The service runs 200 times faster: a
    /// reminder 6 s after the start, a snooze of 5 minutes is 1.5 s.
    @Test func everyKeyOfTheFooterActsThroughTheService() throws {
        let h = try ServiceHarness(start: false)
        defer { h.stop() }
        try h.start(arguments: ["--log-stderr", "--time-scale", "200"])
        let pane = try TmuxPane(command: try watchCommand(h))
        defer { pane.kill() }
        #expect(waitUntil(timeout: 10) { pane.screen.contains("s start  z snooze  k skip  p pause  q quit") }, "\(pane.screen)")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("Time for a break") }, "\(pane.screen)")

        try pane.send("z")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("Snoozed.") }, "\(pane.screen)")
        #expect(try h.string("State") == "snoozed" || h.string("State") == "due")
        // Back when the service says so, not when the view guesses.
        #expect(waitUntil(timeout: 10) { pane.screen.contains("Time for a break") }, "\(pane.screen)")

        try pane.send("p")
        // The state comes with the service's signal, the sentence with the call's reply: either may be first.
        #expect(waitUntil(timeout: 10) {
            pane.screen.contains("State           paused by you") && pane.screen.contains("Paused until you press p again.")
        }, "\(pane.screen)")
        #expect(pane.screen.contains("p resume"))
        #expect(try h.string("PauseReason") == "user")

        try pane.send("p")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("Resumed.") && pane.screen.contains("Next break in") }, "\(pane.screen)")
        #expect(try h.string("State") == "waiting")

        try pane.send("k")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("Skipped.") }, "\(pane.screen)")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("0 completed, 1 skipped") }, "\(pane.screen)")
        #expect(try h.number("SkippedToday") == 1)

        // A refusal is the service's sentence, and the view stays as the service has it.
        try pane.send("p")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("State           paused by you") })
        try pane.send("z")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("Cannot snooze while paused; resume first.") }, "\(pane.screen)")
        #expect(pane.screen.contains("State           paused by you"))
        try pane.send("q")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("EXITED 0") })
    }

    @Test func ctrlCRestoresTheTerminal() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        let pane = try TmuxPane(command: try watchCommand(h))
        defer { pane.kill() }
        #expect(waitUntil(timeout: 10) { pane.screen.contains("Next break in") }, "\(pane.screen)")
        try pane.send("C-c")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("EXITED 0") }, "\(pane.screen)")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("icanon echo") }, "\(pane.screen)")
    }

    @Test func followsTheServiceWhenItStops() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        let pane = try TmuxPane(command: try watchCommand(h))
        defer { pane.kill() }
        #expect(waitUntil(timeout: 10) { pane.screen.contains("Next break in") })
        h.kill9()
        #expect(waitUntil(timeout: 10) { pane.screen.contains("iCare is not running.") }, "\(pane.screen)")
        try h.start()
        #expect(waitUntil(timeout: 10) { pane.screen.contains("Next break in") }, "\(pane.screen)")
        try pane.send("q")
        #expect(waitUntil(timeout: 10) { pane.screen.contains("EXITED 0") })
    }
}
