import Foundation

/// What `GSConnectRig` starts before the phone: the empty system bus, Xvfb, dconf-service and GSConnect's
/// own service, here in the rig's namespace or `elsewhere` (a root's session).
extension GSConnectRig {
    var systemBusAddress: String { "unix:path=" + directory.appendingPathComponent("system-bus").path }

    /// An empty system bus in the namespace (not PrivateBus: this one dies with the namespace), so that
    /// GSConnect's session look-up (logind's ListSessions) finds no logind, here or on the host.
    func startSystemBus() throws {
        let config = directory.appendingPathComponent("system-bus.conf")
        try PrivateBus.config(type: "system", listen: systemBusAddress).write(to: config, atomically: true, encoding: .utf8)
        let p = try Subprocess.startLogged(enter + ["dbus-daemon", "--config-file=\(config.path)", "--nofork", "--nopidfile"],
                                           log: directory.appendingPathComponent("system-bus.log").path, environment: baseEnvironment)
        systemBus = p
        let socket = directory.appendingPathComponent("system-bus").path
        try wait("the rig's system bus to listen") { FileManager.default.fileExists(atPath: socket) || !p.isRunning }
        guard p.isRunning else { throw HarnessError("the rig's system bus ended at start") }
    }

    /// Xvfb in the namespace (its abstract socket is the namespace's), on the first free display number.
    func startDisplay() throws {
        let out = Pipe()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Subprocess.which("setpriv"))
        let xvfb = ["Xvfb", "-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"]
        // Xvfb leaves its process group: elsewhere it dies with the launcher by its own death signal.
        p.arguments = elsewhere.map { ["--pdeathsig", "KILL", "--"] + $0.launcher + ["setpriv", "--pdeathsig", "KILL", "--"] + xvfb }
            ?? (Array(enter.dropFirst()) + xvfb)
        p.environment = elsewhere.map { $0.environment.merging(["PATH": baseEnvironment["PATH"] ?? ""]) { old, _ in old } } ?? baseEnvironment
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = out
        let log = directory.appendingPathComponent("xvfb.log").path
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try Subprocess.launch(p)
        display = p
        guard let number = Subprocess.firstLine(of: out, timeout: timeout), Int(number) != nil else {
            throw HarnessError("Xvfb did not say its display")
        }
        displayNumber = number
    }

    func startDconf() throws {
        let p = try Subprocess.startLogged(enter + ["/usr/libexec/dconf-service"], log: directory.appendingPathComponent("dconf.log").path,
                                           environment: serviceEnvironment)
        dconf = p
        try wait("dconf-service to own ca.desrt.dconf") { self.nameHasOwner("ca.desrt.dconf") || !p.isRunning }
        guard p.isRunning else { throw HarnessError("dconf-service ended at start") }
    }

    func startService() throws {
        // Elsewhere daemon.js runs as D-Bus activation runs it, by its own "#!/usr/bin/env -S gjs -m" (an ES module
        // from GSConnect 57 on: plain `gjs` refuses its imports), dying with the launcher.
        let daemon = elsewhere.map { ["setpriv", "--pdeathsig", "KILL", "--"] + $0.launcher + ["setpriv", "--pdeathsig", "KILL", "--", $0.extensionFolder + "/service/daemon.js"] }
            ?? (enter + ["gjs", Self.extensionFolder + "/service/daemon.js"])
        let p = try Subprocess.startLogged(daemon,
                                           log: directory.appendingPathComponent("gsconnect.log").path, environment: serviceEnvironment)
        service = p
        try wait("GSConnect to own \(Self.busName)") { self.nameHasOwner(Self.busName) || !p.isRunning }
        guard p.isRunning else { throw HarnessError("GSConnect's service ended at start") }
    }

    /// Ends GSConnect's service as a crash would (its process group killed); waits until its name is gone
    /// from the bus and the phone saw the connection close.
    public func stopService() {
        guard let service else { return }
        let eventsBefore = phone?.eventCount ?? 0
        Subprocess.killGroup(service)
        self.service = nil
        _ = waitUntil(timeout: 5, interval: 0.05) { !self.nameHasOwner(Self.busName) }
        _ = waitUntil(timeout: 5, interval: 0.05) { (self.phone?.eventCount ?? 0) > eventsBefore }
    }

    /// Starts GSConnect's service again with the same settings (the pairing is kept in dconf); the phone
    /// connects again, as a real one does on the desktop's broadcast, and the rig waits until it is Connected.
    public func startServiceAgain() throws {
        guard service == nil else { throw HarnessError("GSConnect's service is already running") }
        try startService()
        try connectPhone()
    }
}
