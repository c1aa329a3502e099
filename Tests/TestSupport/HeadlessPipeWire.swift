import Foundation

/// A real PipeWire daemon and WirePlumber, headless, for the busy tests:
/// both run in the test's own runtime folder (`XDG_RUNTIME_DIR`, where the
/// `pipewire-0` socket appears) and config folder, and WirePlumber on the
/// test's private session bus. There is no sound card: a drop-in
/// (`pipewire.conf.d/icare-test.conf`) gives the daemon a null microphone
/// and null speakers (`support.null-audio-sink`, driven by its own timer),
/// so that recording and playing streams are linked by WirePlumber and run.
/// Streams are made with the real `pw-record`/`pw-play` (`stream`); a
/// camera or a screen cast is PipeWire's `videotestsrc` made into a node
/// (`videoSource`) and watched by an app (`watch`: GStreamer's
/// `pipewiresrc`, as browsers and meeting apps read cameras and casts).
public final class HeadlessPipeWire: @unchecked Sendable {
    /// The environment of the daemon, WirePlumber and every stream.
    public let environment: [String: String]
    private let directory: String
    private var pipewire: Process?
    private var wireplumber: Process?
    private var pulse: Process?
    private var streams: [Process] = []
    private var starts = 0

    /// Sets up the config in `environment`'s `XDG_CONFIG_HOME` and starts both programs.
    public init(environment: [String: String]) throws {
        guard let config = environment["XDG_CONFIG_HOME"], let runtime = environment["XDG_RUNTIME_DIR"] else {
            throw HarnessError("HeadlessPipeWire needs XDG_CONFIG_HOME and XDG_RUNTIME_DIR")
        }
        self.environment = environment
        directory = runtime
        let dropIns = config + "/pipewire/pipewire.conf.d"
        try FileManager.default.createDirectory(atPath: dropIns, withIntermediateDirectories: true)
        try Self.config.write(toFile: dropIns + "/icare-test.conf", atomically: true, encoding: .utf8)
        try start()
    }

    static let config = """
        # iCare's busy tests: no sound card, so a null microphone and null speakers;
        # no camera, so PipeWire's own video test source (commented out in pipewire.conf).
        context.spa-libs = {
            videotestsrc = videotestsrc/libspa-videotestsrc
        }
        context.objects = [
            { factory = adapter
              args = { factory.name = support.null-audio-sink node.name = icare-test-microphone
                       media.class = Audio/Source/Virtual audio.position = [ FL FR ] } }
            { factory = adapter
              args = { factory.name = support.null-audio-sink node.name = icare-test-speakers
                       media.class = Audio/Sink audio.position = [ FL FR ] } }
        ]

        """

    /// Starts the daemon, waits for its socket, then WirePlumber, and waits
    /// until WirePlumber has chosen the default microphone (its policy runs).
    public func start() throws {
        starts += 1
        let socket = directory + "/pipewire-0"
        pipewire = try launch(["pipewire"], log: "pipewire-\(starts).log")
        guard waitUntil(timeout: 10, { FileManager.default.fileExists(atPath: socket) && pipewire?.isRunning == true }),
              waitUntil(timeout: 10, { (try? run(["pw-cli", "ls", "Node"]))?.stdout.contains("icare-test-microphone") == true }) else {
            throw HarnessError("pipewire did not start; log:\n\(log("pipewire-\(starts).log"))")
        }
        wireplumber = try launch(["wireplumber"], log: "wireplumber-\(starts).log")
        guard waitUntil(timeout: 15, interval: 0.05, {
            (try? run(["pw-metadata", "-n", "default", "0", "default.audio.source"]))?.stdout.contains("icare-test-microphone") == true
        }) else {
            throw HarnessError("wireplumber did not take charge; log:\n\(log("wireplumber-\(starts).log"))")
        }
    }

    /// Starts PipeWire's PulseAudio server (`pipewire-pulse`, as desktops run it) and waits until
    /// `pactl` reaches it on `$XDG_RUNTIME_DIR/pulse/native` and sees the null speakers.
    /// `pactl` is run only once the socket exists: a libpulse client makes `$XDG_RUNTIME_DIR/pulse`
    /// when it is missing, and pipewire-pulse, finding that folder made under it, refused to start
    /// ("mkdir() …/pulse failed: File exists"; seen once in a full run).
    public func startPulse() throws {
        starts += 1
        pulse = try launch(["pipewire-pulse"], log: "pipewire-pulse-\(starts).log")
        let socket = directory + "/pulse/native"
        guard waitUntil(timeout: 10, interval: 0.05, { FileManager.default.fileExists(atPath: socket) || pulse?.isRunning != true }),
              waitUntil(timeout: 10, interval: 0.05, {
            (try? run(["pactl", "list", "short", "sinks"]))?.stdout.contains("icare-test-speakers") == true
        }) else {
            throw HarnessError("pipewire-pulse did not start; log:\n\(log("pipewire-pulse-\(starts).log"))")
        }
    }

    /// Kills `pipewire-pulse` with SIGKILL (a crash of the sound server).
    public func killPulse() {
        if let pulse { Subprocess.kill9(pulse) }
        pulse = nil
    }

    /// Stops `pipewire-pulse` with SIGSTOP (a sound server that hangs) or lets it go on (SIGCONT).
    public func freezePulse(_ frozen: Bool) {
        if let pulse { kill(pulse.processIdentifier, frozen ? SIGSTOP : SIGCONT) }
    }

    /// The null speakers' name: what a PulseAudio client plays to by default; `.monitor` records it.
    public static let speakers = "icare-test-speakers"

    /// A stream made by a real client (`pw-record FILE`, `pw-play FILE`, with
    /// their options); killed at `stop` if still running.
    public func stream(_ arguments: [String]) throws -> Process {
        let p = try Subprocess.start(arguments, environment: environment)
        streams.append(p)
        return p
    }

    /// A video source node (`Video/Source`, PipeWire's test picture) named
    /// `name`, with `props` added (e.g. `media.role = Camera`); it stays
    /// (`object.linger`) until `destroy(name)`. Unwatched it is suspended.
    public func videoSource(_ name: String, _ props: String = "") throws {
        let r = try run(["pw-cli", "create-node", "adapter",
                         "{ factory.name = videotestsrc node.name = \(name) media.class = Video/Source object.linger = true \(props) }"])
        guard r.status == 0, waitUntil(timeout: 5, { self.nodes.contains("\"\(name)\"") }) else {
            throw HarnessError("no video source \(name): \(r)\nnodes:\n\(nodes)")
        }
    }

    /// An app named `app` watching the node `target` (its stream is a `Stream/Input/Video`).
    public func watch(_ target: String, as app: String) throws -> Process {
        try stream(["gst-launch-1.0", "-q", "pipewiresrc", "target-object=\(target)", "client-name=\(app)",
                    "!", "video/x-raw", "!", "fakesink"])
    }

    /// Removes a node made by `videoSource`.
    public func destroy(_ name: String) throws {
        let dump = try run(["pw-dump"]).stdout
        let objects = (try? JSONSerialization.jsonObject(with: Data(dump.utf8))) as? [[String: Any]] ?? []
        guard let id = objects.first(where: { (($0["info"] as? [String: Any])?["props"] as? [String: Any])?["node.name"] as? String == name })?["id"] as? Int
        else { throw HarnessError("no node \(name) to destroy") }
        try run(["pw-cli", "destroy", String(id)])
    }

    /// Runs a PipeWire tool to completion against this daemon.
    @discardableResult
    public func run(_ arguments: [String]) throws -> ProcessResult {
        try Subprocess.run(arguments, environment: environment, timeout: 10)
    }

    /// Kills the daemon, WirePlumber and pipewire-pulse with SIGKILL (a crash; the socket file stays behind).
    public func kill9() {
        freezePulse(false)
        for p in [pulse, wireplumber, pipewire].compactMap({ $0 }) { Subprocess.kill9(p) }
        pulse = nil
        wireplumber = nil
        pipewire = nil
    }

    public func stop() {
        for p in streams { Subprocess.kill9(p) }
        streams = []
        kill9()
    }

    /// What the daemon lists, for a failing test's message.
    public var nodes: String { (try? run(["pw-cli", "ls", "Node"]))?.stdout ?? "(pw-cli failed)" }

    private func launch(_ arguments: [String], log name: String) throws -> Process {
        let path = directory + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw HarnessError("cannot create \(path)") }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Subprocess.which(arguments[0]))
        p.arguments = Array(arguments.dropFirst())
        var env = ProcessInfo.processInfo.environment
        for (k, v) in Subprocess.neutralLocale.merging(environment, uniquingKeysWith: { $1 }) { env[k] = v }
        p.environment = env
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = handle
        p.standardError = handle
        try p.run()
        return p
    }

    private func log(_ name: String) -> String {
        (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
    }
}
