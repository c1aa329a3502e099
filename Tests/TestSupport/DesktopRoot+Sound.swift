import Foundation

/// The session's sound inside a `DesktopRoot`, as a desktop runs it: the
/// root's own PipeWire, WirePlumber and `pipewire-pulse`, in the session's
/// runtime folder (where the shell's libcanberra finds `pulse/native`), with
/// the null speakers of `HeadlessPipeWire`'s drop-in for want of a sound card.
/// What plays is known two ways: the speakers' monitor recorded inside by the
/// root's `parecord` (`scripts/sound-onsets`, one line per sound heard), and
/// `pw-mon`'s account of each playing stream with the program behind it.
public final class RootSound: @unchecked Sendable {
    public let session: DesktopRootSession

    /// Starts the three (unless `stack` is false: the session runs them already, `RootPlasma(sound: true)`),
    /// then records the speakers and the streams.
    public init(_ session: DesktopRootSession, stack: Bool = true) throws {
        self.session = session
        if stack { try Self.startStack(session) }
        try record()
    }

    /// PipeWire with the null speakers, WirePlumber and pipewire-pulse in `session`, as a desktop session starts
    /// them; waits until a Pulse client sees the speakers.
    public static func startStack(_ session: DesktopRootSession) throws {
        let runtime = session.environment["XDG_RUNTIME_DIR"] ?? ""
        let dropIns = try session.root.folder("config/pipewire/pipewire.conf.d")
        try HeadlessPipeWire.config.write(to: dropIns.appendingPathComponent("icare-test.conf"), atomically: true, encoding: .utf8)
        try session.start(["pipewire"], log: "pipewire.log")
        guard waitUntil(timeout: 10, interval: 0.05, { FileManager.default.fileExists(atPath: runtime + "/pipewire-0") }) else {
            throw HarnessError("pipewire did not start in the \(session.root.release) root:\n\(session.log("pipewire.log"))")
        }
        try session.start(["wireplumber"], log: "wireplumber.log")
        guard try waitUntil(timeout: 15, interval: 0.2, {
            try session.run(["pw-metadata", "-n", "default", "0", "default.audio.sink"]).stdout.contains(HeadlessPipeWire.speakers)
        }) else { throw HarnessError("wireplumber chose no speakers in the \(session.root.release) root:\n\(session.log("wireplumber.log"))") }
        // pactl only once the socket is there (a client that makes pulse/ first keeps pipewire-pulse from starting).
        try session.start(["pipewire-pulse"], log: "pipewire-pulse.log")
        guard waitUntil(timeout: 10, interval: 0.05, { FileManager.default.fileExists(atPath: runtime + "/pulse/native") }),
              try waitUntil(timeout: 10, interval: 0.2, {
                  try session.run(["pactl", "list", "short", "sinks"]).stdout.contains(HeadlessPipeWire.speakers)
              }) else { throw HarnessError("pipewire-pulse did not start in the \(session.root.release) root:\n\(session.log("pipewire-pulse.log"))") }
    }

    private func record() throws {
        try session.start(["pw-mon", "-N"], log: "pw-mon.log")
        let script = session.root.work.appendingPathComponent("sound-onsets")
        try FileManager.default.copyItem(at: SoundRecorder.repo.appendingPathComponent("scripts/sound-onsets"), to: script)
        try session.start(["python3", script.path, HeadlessPipeWire.speakers + ".monitor"], log: "sound-onsets.log")
        guard waitUntil(timeout: 10, interval: 0.05, { session.log("sound-onsets.log").contains("ready") }) else {
            throw HarnessError("scripts/sound-onsets did not record in the \(session.root.release) root: \(session.log("sound-onsets.log"))")
        }
    }

    /// The sounds the speakers played so far, each reported 0.3 s after its last loud sample.
    public var sounds: [SoundRecorder.Sound] { session.log("sound-onsets.log").split(separator: "\n").compactMap(SoundRecorder.sound) }

    /// One audio stream that played to the speakers, as `pw-mon` saw its node added: the program behind it
    /// (`application.process.binary`), the application's name, and what it played (canberra's `event.id`
    /// and the `media.name` it gives the stream: the theme's sound).
    public struct Stream: Sendable, CustomStringConvertible {
        public let binary: String, application: String, event: String, media: String
        public var description: String { "\(event.isEmpty ? media : event) from \(application) (\(binary))" }
    }

    /// The audio streams that played so far, in order.
    public var streams: [Stream] {
        var found: [Stream] = [], section: [Substring] = []
        func close() {
            guard section.first == "added:", section.contains(where: { $0.hasSuffix("media.class = \"Stream/Output/Audio\"") }) else { return }
            func value(_ key: String) -> String {
                section.first { $0.contains("\t\(key) = ") }?.split(separator: "\"").dropFirst().first.map(String.init) ?? ""
            }
            found.append(Stream(binary: value("application.process.binary"), application: value("application.name"),
                                event: value("event.id"), media: value("media.name")))
        }
        // pw-mon's sections begin at the line's start (added:, changed:, removed:); what belongs to them is indented.
        for line in session.log("pw-mon.log").split(separator: "\n") {
            if line.hasSuffix(":"), let first = line.first, first.isLetter {
                close()
                section = [line]
            } else {
                section.append(line)
            }
        }
        close()
        return found
    }

    /// What was heard and who played, for a failing test's message.
    public var description: String { "heard \(sounds); streams \(streams)" }
}
