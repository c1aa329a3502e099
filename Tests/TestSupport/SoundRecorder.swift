import Foundation

/// What the null speakers of a `HeadlessPipeWire` play, recorded from their
/// monitor by the real `parecord` (through pipewire-pulse) and cut into
/// sounds by `scripts/sound-onsets`: each sound's first loud sample as a
/// wall-clock time in µs (an upper bound: the time its chunk was read) and
/// its peak. Recording a sink's monitor is `stream.capture.sink`, which
/// iCare's busy watch does not count as a microphone.
public final class SoundRecorder: @unchecked Sendable {
    public struct Sound: Sendable, CustomStringConvertible {
        /// CLOCK_REALTIME µs of the first sample above the threshold.
        public let onset: UInt64
        public let peak: Int
        public var description: String { "sound at \(onset) (peak \(peak))" }
    }

    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private let output: Collected

    /// Starts recording `sink`'s monitor and waits (bounded) for the first samples.
    public init(pipeWire: HeadlessPipeWire, sink: String = HeadlessPipeWire.speakers) throws {
        let script = Self.repo.appendingPathComponent("scripts/sound-onsets").path
        output = try Collected(["/usr/bin/python3", script, sink + ".monitor"], environment: pipeWire.environment)
        guard waitUntil(timeout: 10, { self.output.lines.contains("ready") }) else {
            output.stop()
            throw HarnessError("scripts/sound-onsets did not start recording \(sink).monitor: \(output.text)")
        }
    }

    /// The sounds that have ended so far (a sound is reported 0.3 s after its last loud sample).
    public var sounds: [Sound] { output.lines.compactMap(Self.sound) }

    /// One line of `scripts/sound-onsets` ("onset µs peak"), or nil for any other line ("ready").
    public static func sound(_ line: some StringProtocol) -> Sound? {
        let words = line.split(separator: " ")
        guard words.count == 3, words[0] == "onset", let at = UInt64(words[1]), let peak = Int(words[2]) else { return nil }
        return Sound(onset: at, peak: peak)
    }

    public func stop() { output.stop() }
    deinit { stop() }
}
