import Testing
import Foundation
import TestSupport

/// icared as installed: inside the sandbox of its own systemd unit, read from systemd/icared.service.in by
/// scripts/unit-sandbox (docs/as-installed.md). Every other suite runs icared this way too; these tests show
/// that the sandbox is really there, that a day's work stays inside what the unit allows, and that each
/// folder the unit grants is needed: without it, icared's writes there fail.
@Suite(.serialized) struct AsInstalledTests {
    /// A line of /proc/PID/status.
    static func status(_ pid: pid_t, _ field: String) throws -> String {
        let text = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else {
            throw HarnessError("no \(field) in /proc/\(pid)/status")
        }
        return line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces)
    }

    static func namespace(_ pid: String, _ kind: String) throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/\(kind)")
    }

    /// The sockets icared holds that are not unix sockets: each socket's inode looked up in the tables of
    /// its own network namespace (/proc/PID/net: unix, netlink, tcp, udp, raw, packet…), named by table.
    static func socketsOtherThanUnix(_ pid: pid_t) throws -> [String] {
        var inodes: [String: String] = [:]
        for fd in try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
                  target.hasPrefix("socket:[") else { continue }
            inodes[String(target.dropFirst("socket:[".count).dropLast())] = fd
        }
        #expect(!inodes.isEmpty, "icared holds no socket at all: not even its bus")
        var others: [String] = []
        for table in try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/net") where table != "unix" {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/net/\(table)", encoding: .utf8) else { continue }
            let words = Set(text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
            for (inode, fd) in inodes where words.contains(inode) { others.append("fd \(fd): socket \(inode) in \(table)") }
        }
        return others
    }

    /// A copy of the unit without the lines that start with `line`.
    static func unit(without line: String, in home: URL) throws -> String {
        let text = try String(contentsOfFile: ServiceHarness.unitTemplate, encoding: .utf8)
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix(line) }
        #expect(kept.count < text.split(separator: "\n", omittingEmptySubsequences: false).count, "the unit has no line \(line)")
        let path = home.deletingLastPathComponent().appendingPathComponent(home.lastPathComponent + "-icared.service").path
        try kept.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A day's work: settings changed, a break taken, a skip, a pause, a restart that reads it all back.
    static func aDay(_ s: ServiceHarness) throws {
        for (name, value) in [("Interval", "1500"), ("BreakDuration", "10")] {
            let r = try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", name, "u", value])
            #expect(r.status == 0, "\(name): \(r)")
        }
        _ = try s.call("StartBreak")
        _ = try s.call("Skip")
        _ = try s.call("Pause", "u", "60")
        _ = try s.call("Resume")
    }

    @Test func icaredRunsInsideItsUnitsSandbox() throws {
        let s = try ServiceHarness()
        defer { s.stop() }
        let pid = try #require(s.process?.processIdentifier)
        // The harness's child is icared itself (unit-sandbox execs in place), as systemd's would be.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe").hasSuffix("/icared"))
        #expect(try Self.status(pid, "NoNewPrivs") == "1")
        #expect(try Self.status(pid, "Seccomp") == "2", "SystemCallFilter= and the rest are one seccomp filter")
        #expect(try Self.status(pid, "CapBnd") == "0000000000000000", "CapabilityBoundingSet= is empty")
        for kind in ["mnt", "net", "user", "uts"] {
            #expect(try Self.namespace("\(pid)", kind) != Self.namespace("self", kind), "PrivateNetwork=, ProtectSystem=…: its own \(kind)")
        }
        #expect(String(try Self.status(pid, "Umask")) == "0077")
        // Its folders are writable and the rest of the home is not: a write outside fails as it would under systemd.
        #expect(!s.log.contains("Read-only file system"), "\(s.log)")
    }

    @Test func aDaysWorkStaysInsideWhatTheUnitAllows() throws {
        let s = try ServiceHarness(config: "Interval = 20m\n")
        defer { s.stop() }
        try Self.aDay(s)
        #expect(try s.signal(SIGTERM) == 0)
        try s.start()
        let pid = try #require(s.process?.processIdentifier)
        let others = try Self.socketsOtherThanUnix(pid)
        #expect(others.isEmpty, "RestrictAddressFamilies=AF_UNIX: \(others)")
        #expect(!s.log.contains("Read-only file system"), "icared wrote where the unit does not let it:\n\(s.log)")
        #expect(!s.log.contains("Operation not permitted"), "a call the unit's filter refuses:\n\(s.log)")
        let days = (try? FileManager.default.contentsOfDirectory(atPath: s.stateDirectory + "/history")) ?? []
        #expect(days.count == 1, "today's history is in the unit's state folder: \(days)")
        #expect(try s.number("Interval") == 1500, "the setting was written and read back")
    }

    /// Each writable folder the unit grants, what icared writes there, and what the log says without it.
    enum Grant: String, CaseIterable, CustomTestStringConvertible {
        case configuration = "ConfigurationDirectory="
        case state = "ReadWritePaths=%h/.local/state/icare"
        var testDescription: String { rawValue }
    }

    @Test(arguments: Grant.allCases) func withoutAGrantItsWritesFailAndAreSaid(_ grant: Grant) throws {
        let s = try ServiceHarness(config: "Interval = 20m\n", start: false)
        defer { s.stop() }
        s.unitFile = try Self.unit(without: grant.rawValue, in: s.home)
        try s.start()
        switch grant {
        case .configuration:
            let r = try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "Interval", "u", "1500"])
            #expect(r.status != 0 && r.stderr.contains("Read-only file system"), "a setting changed without the grant: \(r)\n\(s.log)")
        case .state:
            _ = try s.call("Skip")
            #expect(waitUntil(timeout: 5) { s.log.contains("Read-only file system") }, "the history was written without the grant:\n\(s.log)")
        }
    }

    @Test func aConfigLinkedOutOfItsFolderIsReadAndAChangeIsRefusedSayingWhy() throws {
        let s = try ServiceHarness(start: false)
        defer { s.stop() }
        let dotfiles = s.home.appendingPathComponent("dotfiles").path
        try FileManager.default.createDirectory(atPath: dotfiles, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: s.configDirectory, withIntermediateDirectories: true)
        try Data("Interval = 25m\n".utf8).write(to: URL(fileURLWithPath: dotfiles + "/icare.conf"))
        #expect(symlink(dotfiles + "/icare.conf", s.configDirectory + "/config") == 0)
        try s.start()
        #expect(try s.number("Interval") == 1500)
        let r = try s.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "Interval", "u", "1800"])
        #expect(r.status != 0 && r.stderr.contains("Read-only file system"), "\(r)")
        #expect(try s.number("Interval") == 1500, "a refused change is not kept in memory only")
        #expect(try String(contentsOfFile: dotfiles + "/icare.conf", encoding: .utf8) == "Interval = 25m\n")
    }

    @Test func aSettingTheHarnessDoesNotKnowStopsIt() throws {
        let s = try ServiceHarness(start: false)
        defer { s.stop() }
        let text = try String(contentsOfFile: ServiceHarness.unitTemplate, encoding: .utf8)
        let path = s.home.path + "-unknown.service"
        try text.replacingOccurrences(of: "[Service]\n", with: "[Service]\nProtectProc=invisible\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        s.unitFile = path
        #expect(throws: HarnessError.self) { try s.start(timeout: 3) }
        #expect(s.log.contains("ProtectProc= is not known to unit-sandbox"), "\(s.log)")
    }
}
