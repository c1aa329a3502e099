import FileSupport
import Foundation
import Glibc
import Testing
@testable import FileKit

/// The writer's changesets against the real dconf-service, activated on a bus
/// of the test's own with private config and runtime folders: `Change` through
/// `gdbus call`, the result through `dconf read` and iCare's own GVDB reader.
@Suite struct GVariantWriterDconfTests {
    static let key = GVariantWriterTests.gsconnectKey

    @Test func setsAndResetsGSConnectsCommandList() throws {
        let dconf = try PrivateDconf()
        defer { dconf.stop() }
        let list = GVariantWriterTests.commandList([
            ("key", "Start eye break", "/usr/bin/icarectl start"),
            ("icare-pause", "Pauzeer één uur", "'/usr/lib/icare/icarectl' pause 1h"),
        ])
        let reply = try dconf.change([(Self.key, list), ("/org/example/flag", .boolean(true)), ("/org/example/name", .string("ünï"))])
        #expect(reply.hasPrefix("('") && reply.hasSuffix("',)"), "Change answers (s tag): \(reply)")
        #expect(try dconf.read(Self.key) == "{'key': <{'name': 'Start eye break', 'command': '/usr/bin/icarectl start'}>, "
            + "'icare-pause': <{'name': 'Pauzeer één uur', 'command': \"'/usr/lib/icare/icarectl' pause 1h\"}>}")
        #expect(try dconf.read("/org/example/flag") == "true")
        #expect(try dconf.read("/org/example/name") == "'ünï'")

        let database = try GVDBFile(path: dconf.database)
        #expect(database.value(at: Self.key)?.type == "a{sv}")
        #expect(try database.value(at: Self.key)?.data == GVariantWriter.serialise(list), "dconf stores the writer's bytes as they are")

        _ = try dconf.change([(Self.key, nil)])
        #expect(try dconf.read(Self.key) == "", "nothing resets the key")
        #expect(try dconf.read("/org/example/flag") == "true", "a reset leaves other keys alone")

        _ = try dconf.change([("/org/example/", nil)])
        #expect(try dconf.read("/org/example/flag") == "" && (try dconf.read("/org/example/name")) == "", "a folder reset clears its keys")
    }

    @Test func anEmptyCommandListReplacesAFullOne() throws {
        let dconf = try PrivateDconf()
        defer { dconf.stop() }
        _ = try dconf.change([(Self.key, GVariantWriterTests.commandList([("key", "Start eye break", "/usr/bin/icarectl start")]))])
        _ = try dconf.change([(Self.key, GVariantWriterTests.commandList([]))])
        #expect(try dconf.read(Self.key) == "@a{sv} {}")
    }
}

/// dconf-service on a private `dbus-daemon`, activated there from a service
/// file of the test's own, writing `$XDG_CONFIG_HOME/dconf/user` in a
/// temporary folder. A missing program fails the test, naming the package.
final class PrivateDconf {
    private let folder: TemporaryDirectory
    private let bus: Process
    private let environment: [String: String]
    /// The database dconf-service writes.
    var database: String { folder.join("config/dconf/user") }

    init() throws {
        let tools = [("dbus-daemon", "/usr/bin/dbus-daemon", "dbus-daemon"), ("dconf-service", "/usr/libexec/dconf-service", "dconf-service"),
                     ("dconf", "/usr/bin/dconf", "dconf-cli"), ("gdbus", "/usr/bin/gdbus", "libglib2.0-bin")]
        for (name, path, package) in tools where !FileManager.default.isExecutableFile(atPath: path) {
            throw TestFailure("\(name) is missing at \(path): changesets are tested against the real dconf-service; install \(package).")
        }
        folder = try TemporaryDirectory()
        for sub in ["config", "runtime", "services"] {
            try FileManager.default.createDirectory(atPath: folder.join(sub), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        try writeFixture("[D-BUS Service]\nName=ca.desrt.dconf\nExec=/usr/libexec/dconf-service\n", to: folder.join("services/ca.desrt.dconf.service"))
        try writeFixture("""
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(folder.join("bus"))</listen>
              <auth>EXTERNAL</auth>
              <servicedir>\(folder.join("services"))</servicedir>
              <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
            </busconfig>
            """, to: folder.join("bus.conf"))
        var base = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_CONFIG_HOME": folder.join("config"),
                    "XDG_RUNTIME_DIR": folder.join("runtime")]
        bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--config-file=\(folder.join("bus.conf"))", "--nofork", "--nopidfile", "--print-address=1"]
        bus.environment = base
        let out = Pipe()
        bus.standardOutput = out
        _ = FileManager.default.createFile(atPath: folder.join("bus.log"), contents: nil)
        bus.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.join("bus.log")))
        try bus.run()
        var line = Data()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { break }
            line.append(byte)
        }
        let address = String(decoding: line, as: UTF8.self)
        guard address.hasPrefix("unix:") else {
            kill(bus.processIdentifier, SIGKILL)
            bus.waitUntilExit()
            throw TestFailure("dbus-daemon did not print its address (it printed \"\(address)\")")
        }
        base["DBUS_SESSION_BUS_ADDRESS"] = address
        environment = base
    }

    /// Calls `ca.desrt.dconf.Writer.Change` with the writer's changeset; returns gdbus's print of the reply.
    func change(_ changes: [(path: String, value: GVariantWriter.Value?)]) throws -> String {
        let bytes = try GVariantWriter.dconfChangeset(changes)
        let argument = "[" + bytes.map { "byte 0x" + String($0, radix: 16) }.joined(separator: ", ") + "]"
        return try run("/usr/bin/gdbus", ["call", "--session", "--timeout", "10", "--dest", "ca.desrt.dconf", "--object-path", "/ca/desrt/dconf/Writer/user",
                                          "--method", "ca.desrt.dconf.Writer.Change", argument])
    }

    /// What `dconf read` prints for `key`: GVariant text, or nothing when unset.
    func read(_ key: String) throws -> String {
        try run("/usr/bin/dconf", ["read", key])
    }

    /// Stops dconf-service (by the process id the bus gives for its name, when it runs) and the bus.
    /// SIGKILL: both inherit the test runner's blocked signals (SIGTERM among them), and
    /// dconf-service outlives its bus.
    func stop() {
        if let reply = try? run("/usr/bin/gdbus", ["call", "--session", "--timeout", "5", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                                   "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", "ca.desrt.dconf"]),
           let pid = Int32(reply.split(separator: " ").last?.filter(\.isNumber) ?? ""), pid > 1 {  // "(uint32 1234,)"
            kill(pid, SIGKILL)
        }
        kill(bus.processIdentifier, SIGKILL)
        bus.waitUntilExit()
    }

    /// Runs `program` in the private environment; its trimmed output, or a failure with its errors.
    private func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = environment
        for name in ["out", "err"] { _ = FileManager.default.createFile(atPath: folder.join(name), contents: nil) }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.join("out")))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.join("err")))
        try process.run()
        process.waitUntilExit()
        let output = try text(folder.join("out")).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0 else {
            throw TestFailure("\(program) \(arguments.prefix(2).joined(separator: " ")) failed (\(process.terminationStatus)): \(try text(folder.join("err")))"
                + " The bus logged: \(try text(folder.join("bus.log")))")
        }
        return output
    }
}
