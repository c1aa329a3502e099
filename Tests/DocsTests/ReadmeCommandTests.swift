import Testing
import Foundation
import TestSupport

/// The README's commands work as written: they are read from its code
/// blocks, so the README cannot drift from what is run here.
@Suite struct ReadmeCommandTests {
    /// Exactly two commands, scripts/run and scripts/test: scripts that are
    /// there, executable, and that bash can read. (They install packages, so
    /// they are not started here; the next tests rehearse scripts/run.)
    @Test func theQuickStartIsTwoScriptsThatExist() throws {
        let commands = try ReadmeCommands.commands(inSection: "Quick start")
        #expect(commands == [["scripts/run"], ["scripts/test"]], "\(commands)")
        for command in commands {
            let script = repository.appendingPathComponent(command[0]).path
            #expect(FileManager.default.isExecutableFile(atPath: script), "\(script) is not an executable file")
            let syntax = try Subprocess.run(["bash", "-n", script])
            #expect(syntax.status == 0, "\(command[0]): \(syntax)")
        }
    }

    /// Every command of "Everyday use" against a real icared on a private
    /// bus, in the README's order: each exits 0, and the busctl call's
    /// effect is seen.
    @Test func everyEverydayCommandRunsAgainstARealService() throws {
        let commands = try ReadmeCommands.commands(inSection: "Everyday use")
        #expect(commands.filter { $0.first == "icarectl" }.count == 3, "\(commands)")
        #expect(commands.filter { $0.first == "busctl" }.count == 1, "\(commands)")
        let h = try ServiceHarness()
        defer { h.stop() }
        var environment = h.environment
        environment["NO_COLOR"] = "1"
        for command in commands {
            let program: String
            switch command[0] {
            case "icarectl": program = try Products.path("icarectl")
            case "busctl": program = try Subprocess.which("busctl")
            default:
                Issue.record("README's everyday use runs \(command[0]), which this test does not know how to run")
                continue
            }
            let result = try Subprocess.run([program] + command.dropFirst(), environment: environment, timeout: 20)
            #expect(result.status == 0, "\(command.joined(separator: " ")): \(result)\nicared's log:\n\(h.log)")
            #expect(result.stderr.isEmpty, "\(command.joined(separator: " ")): \(result)")
            if command[0] == "icarectl" {
                #expect(!result.stdout.isEmpty, "\(command.joined(separator: " ")) printed nothing")
            }
        }
        if let call = commands.first(where: { $0.first == "busctl" }), call.contains("StartBreak") {
            #expect(try h.string("State") == "break")
        }
        #expect(try h.nameHasOwner(), "icared is gone; its log:\n\(h.log)")
    }

    /// The programs the README shows in `.build/release/` (the app among
    /// them) are the ones scripts/run builds, and it then runs the icared it built.
    @Test func scriptsRunBuildsWhatTheReadmeShows() throws {
        let shown = try ReadmeCommands.releaseProgramsShown
        #expect(shown.contains("icare"), "\(shown)")
        #expect(shown.contains("icarectl"), "\(shown)")
        let rehearsal = try ScriptsRunRehearsal()
        defer { rehearsal.remove() }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let (result, log) = try rehearsal.run(bus: bus)
        #expect(result.status == 0, "\(result)\n\(log)")
        let built = ScriptsRunRehearsal.productsBuilt(log)
        for program in shown.union(["icared"]) {
            #expect(built.contains(program), "scripts/run builds \(built), not \(program)")
        }
        #expect(log.contains("deps.sh "), "scripts/run did not install its packages first: \(log)")
        #expect(log.last == "icared --log-stderr", "scripts/run did not run the icared it built: \(log)")
    }
}
