import Foundation

/// A `dbus-daemon` of the test's own, never the host's session bus.
public final class PrivateBus: @unchecked Sendable {
    public let address: String
    public private(set) var process: Process
    public let directory: URL
    private let configPath: URL
    private let launchEnvironment: [String: String]

    /// Starts a session-type bus; `serviceDirectory` adds a folder of activatable services.
    /// By default only the bus's own user may connect (as a session bus); `anyUser`
    /// lets every user in, for a server that must run as another user (mako and
    /// swaync beside a headless sway, which runs as `nobody`). The socket is
    /// made 0777 by dbus-daemon either way: the policy is what lets them in.
    /// `environment` is the daemon's, which the services it activates inherit (a desktop's private folders).
    public init(serviceDirectory: String? = nil, system: Bool = false, anyUser: Bool = false,
                environment: [String: String] = [:]) throws {
        let daemon = try Subprocess.which("dbus-daemon")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("icare-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("bus").path
        let config = Self.config(type: system ? "system" : "session", listen: "unix:path=\(socket)", anyUser: anyUser,
                                 serviceDirectory: serviceDirectory)
        configPath = directory.appendingPathComponent("bus.conf")
        try config.write(to: configPath, atomically: true, encoding: .utf8)
        launchEnvironment = environment
        (process, address) = try Self.launch(daemon, configPath, environment)
    }

    /// The configuration of a test's bus: `type` (session or system), listening at `listen`, every user let in
    /// when `anyUser` (else only the bus's own), activating services from `serviceDirectory`; any name may be
    /// owned and any message seen (the tests watch what goes by).
    public static func config(type: String, listen: String, anyUser: Bool = false, serviceDirectory: String? = nil) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>\(type)</type>
          <listen>\(listen)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
        \(anyUser ? "    <allow user=\"*\"/>\n" : "")    <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        \(serviceDirectory.map { "  <servicedir>\($0)</servicedir>\n" } ?? "")</busconfig>

        """
    }

    /// Starts dbus-daemon on `configPath` and reads the address it prints first.
    private static func launch(_ daemon: String, _ configPath: URL, _ environment: [String: String]) throws -> (Process, String) {
        let out = Pipe()
        let process = try Subprocess.start([daemon, "--config-file=\(configPath.path)", "--nofork", "--nopidfile", "--print-address=1"],
                                           environment: environment, stdout: out)
        var line = Data()
        let handle = out.fileHandleForReading
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0a]) { break }
            line.append(byte)
        }
        let address = String(decoding: line, as: UTF8.self)
        guard address.hasPrefix("unix:") else {
            Subprocess.kill9(process)
            throw HarnessError("dbus-daemon did not print its address")
        }
        return (process, address)
    }

    /// Kills the bus (SIGKILL, as a crash would) and starts a new one on the
    /// same socket path, as a restart of the system's dbus does.
    public func restart() throws {
        Subprocess.kill9(process)
        let daemon = try Subprocess.which("dbus-daemon")
        let (process, address) = try Self.launch(daemon, configPath, launchEnvironment)
        guard address.hasPrefix(self.address.split(separator: ",").first.map(String.init) ?? self.address) else {
            throw HarnessError("the restarted bus listens at \(address), not \(self.address)")
        }
        self.process = process
    }

    /// Environment that points clients (busctl --user, gdbus --session, libdbus) at this bus.
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    public func stop() {
        Subprocess.kill9(process)
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
