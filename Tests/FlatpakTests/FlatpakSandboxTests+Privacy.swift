import Testing
import Foundation
import TestSupport

/// docs/privacy.md's Flatpak section proven by watching (issue 54, item 1): the Flatpak's icared, started
/// by `flatpak run` (the real bwrap and xdg-dbus-proxy) under `strace -f` (`SyscallWatch`, which follows
/// flatpak, bwrap and the sandbox's processes: ptrace from outside a bwrap sandbox works, as root and as
/// a person), with a monitor on the session bus (`BusRecorder`), through a short session: the first start's
/// notice, a reminder with Start and End break, a setting changed, Plasma-shaped do-not-disturb. Only what
/// follows the sandbox's `execve` of /app/bin/icared is icared's; its paths are the sandbox's own
/// (`~/.var/app/…`, `/app`, the runtime's `/usr`). On the bus icared is seen through its proxy: the
/// proxy's connection is icared's, the calls it forwards are icared's. Part of FlatpakSandboxTests, which
/// scripts/test runs with the bundles.
extension FlatpakSandboxTests {
    static let sandboxedIcared = "/app/bin/icared"

    @Test func thePrivacyPageListsExactlyWhatTheFlatpaksIcaredDid() throws {
        let rig = try FlatpakRig(firstStart: true)
        defer { rig.stop() }
        // The monitor first: the server's name is then known when icared calls its owner.
        let session = try BusRecorder(address: rig.bus.address)
        defer { session.stop() }
        let server = try MockNotifications(environment: rig.environment, capabilities: "actions body inhibitions")
        defer { server.stop() }
        try server.addInhibited()
        let syscalls = try SyscallWatch()
        defer { syscalls.remove() }
        // A first start (no state file, no history) with the schedule 300 times faster: a reminder every four seconds.
        let strace = try Subprocess.start(syscalls.launcher + [try Subprocess.which("flatpak"), "run", "--command=\(Self.sandboxedIcared)", FlatpakRig.appID,
                                                               "--time-scale", "300"], environment: rig.environment)
        defer { if strace.isRunning { Subprocess.kill9(strace) } }
        func step(_ what: String) { print("FlatpakSandboxTests: \(what)") }
        let named = try waitUntil(timeout: 20, interval: 0.1) { try rig.nameHasOwner(FlatpakRig.appID) }
        try #require(named, "the Flatpak's icared never took its name")

        step("the first start's notice")
        #expect(waitUntil(timeout: 15, interval: 0.1) { ((try? server.notifies()) ?? []).contains { $0.summary == "iCare is on" } },
                "no first-start notice: \((try? server.notifies()) ?? [])")
        step("a reminder, Start and End break")
        var index: Int?
        _ = waitUntil(timeout: 15, interval: 0.1) {
            index = ((try? server.notifies()) ?? []).firstIndex { $0.actions.contains("snooze") }
            return index != nil
        }
        let reminder = try #require(index, "no reminder: \((try? server.notifies()) ?? [])")
        let id = try server.idOfNotify(at: reminder)
        try server.click(id, "start")
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.state() == "break" }, "Start did not start the break")
        try server.click(id, "end")
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.state() != "break" }, "End break did not end it")
        step("a setting changed")
        let set = try rig.busctl(["set-property", FlatpakRig.appID, "/org/icare/Reminder", FlatpakRig.appID, "SnoozeDuration", "u", "420"])
        #expect(set.status == 0, "\(set)")
        let config = rig.home.appendingPathComponent(".var/app/\(FlatpakRig.appID)/config/icare/config").path
        #expect(waitUntil(timeout: 10) { (try? String(contentsOfFile: config, encoding: .utf8))?.contains("SnoozeDuration = ") == true },
                "the setting in the sandbox's config file")
        step("do not disturb")
        try server.inhibit(true)
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.state() == "paused" }, "do-not-disturb did not pause it")
        try server.inhibit(false)
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.state() != "paused" }, "do-not-disturb's end did not resume it")

        // Its connection is the proxy's, told by the process id while it is there.
        let proxy = try #require(try Self.icaredsConnectionPID(rig), "the bus names the connection owning icared's name")
        let connections = try session.connections(of: [proxy])
        let pids = rig.icaredPIDs()
        for pid in pids { kill(pid, SIGTERM) }
        #expect(waitUntil(timeout: 10) { !strace.isRunning }, "flatpak run did not end when icared did")

        var record = PrivacyRecord()
        session.record(connections, as: "session bus", into: &record)
        let (calls, _) = try syscalls.record(of: Self.sandboxedIcared, normalize: PathNormalizer(replacements: [
            (rig.home.path, "~"), ("/run/user/\(getuid())", "$XDG_RUNTIME_DIR"),
        ]))
        record.merge(calls)
        print("FlatpakSandboxTests: what the Flatpak's icared did, as docs/privacy.md words it:\n\(record.text)")
        let problems = try PrivacyPage.read().compare(record, programs: ["icared in the Flatpak"])
        if !problems.isEmpty { Issue.record("docs/privacy.md and the watched Flatpak disagree:\n\(problems.joined(separator: "\n"))") }
    }

    static func icaredsConnectionPID(_ rig: FlatpakRig) throws -> Int32? {
        let r = try rig.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                "GetConnectionUnixProcessID", "s", FlatpakRig.appID])
        return Int32(r.stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
    }
}
