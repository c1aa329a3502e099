import Testing
import Foundation
import TestSupport

/// Issue 17 with the real thing: a PipeWire daemon and WirePlumber started
/// headless in the test's own runtime folder (`HeadlessPipeWire`), streams
/// made by the real `pw-record` and `pw-play`, and the real `icared` on a
/// private bus, read through busctl and its signals only. Nothing here is
/// faked: what a node looks like is what PipeWire 0.3.65 makes of these
/// clients' properties. Cameras and casts are PipeWire's own video test
/// source made into a node, watched by GStreamer's `pipewiresrc` (an app).
@Suite(.serialized) struct PipeWireBusyTests {
    /// icared, its bus, and PipeWire started first in its runtime folder.
    final class Rig {
        let service: ServiceHarness
        let pipeWire: HeadlessPipeWire
        let monitor: BusMonitor
        let folder: String

        init(environment: [String: String] = [:]) throws {
            service = try ServiceHarness(environment: environment, start: false)
            pipeWire = try HeadlessPipeWire(environment: service.environment)
            try service.start()
            folder = service.home.path
            monitor = try BusMonitor(environment: service.environment) { [service] in _ = try service.property("State") }
        }

        func stop() {
            monitor.stop()
            pipeWire.stop()
            service.stop()
        }

        func busy() throws -> String {
            "\(try service.property("Busy")) \(try service.string("BusySource")) \(try service.string("BusyReason"))"
        }

        /// Waits (bounded) until Busy reads `expected` (`b true microphone pw-record`).
        func expectBusy(_ expected: String, _ comment: String) throws {
            let ok = try waitUntil(timeout: 10) { try busy() == expected }
            let now = (try? busy()) ?? "unreadable"
            #expect(ok, "\(comment): Busy is '\(now)', not '\(expected)'\nnodes:\n\(pipeWire.nodes)\nlog:\n\(service.log)")
        }

        /// Whether a node with `name` runs now (pw-dump's JSON).
        func running(_ name: String) throws -> Bool {
            let dump = try pipeWire.run(["pw-dump"]).stdout
            let objects = (try? JSONSerialization.jsonObject(with: Data(dump.utf8))) as? [[String: Any]] ?? []
            return objects.contains { object in
                guard let info = object["info"] as? [String: Any], let props = info["props"] as? [String: Any] else { return false }
                return props["node.name"] as? String == name && info["state"] as? String == "running"
            }
        }

        /// A minute of silence to play: a 16-bit mono WAV at 8 kHz.
        func silence() throws -> String {
            let path = folder + "/silence.wav"
            let samples = 8000 * 60
            var data = Data("RIFF".utf8)
            func le32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { data.append(contentsOf: $0) } }
            func le16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { data.append(contentsOf: $0) } }
            le32(36 + samples * 2)
            data.append(contentsOf: Array("WAVEfmt ".utf8))
            le32(16); le16(1); le16(1); le32(8000); le32(16000); le16(2); le16(16)
            data.append(contentsOf: Array("data".utf8))
            le32(samples * 2)
            data.append(Data(count: samples * 2))
            try data.write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    @Test func aRecordingStreamIsTheMicrophoneAndALevelMeterIsNot() throws {
        let rig = try Rig()
        defer { rig.stop() }
        #expect(try rig.busy() == "b false  ")

        // A level meter as pipewire-pulse makes one for pavucontrol (stream.monitor): running, not busy.
        let meter = try rig.pipeWire.stream(["pw-record", "-P", "{ node.name = icare-level-meter stream.monitor = true }",
                                             rig.folder + "/meter.wav"])
        #expect(try waitUntil(timeout: 10) { try rig.running("icare-level-meter") }, "nodes:\n\(rig.pipeWire.nodes)")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try rig.busy() == "b false  ", "a level meter is no call")
        Subprocess.kill9(meter)

        let recording = try rig.pipeWire.stream(["pw-record", rig.folder + "/voice.wav"])
        try rig.expectBusy("b true microphone pw-record", "pw-record")
        // Connected (it saw the stream) with the native protocol alone: no client.conf and its modules, no D-Bus plugin.
        let pid = try #require(rig.service.process?.processIdentifier)
        let maps = try Subprocess.run(["cat", "/proc/\(pid)/maps"]).stdout  // the whole file (ASan maps are long)
        #expect(maps.contains("libpipewire-module-protocol-native"), "connected")
        #expect(!maps.contains("libpipewire-module-client-node") && !maps.contains("libspa-dbus"), "\(maps)")
        #expect(waitUntil { rig.monitor.changedProperties.contains("BusySource") && rig.monitor.changedProperties.contains("BusyReason") })
        Subprocess.kill9(recording)
        try rig.expectBusy("b false  ", "pw-record stopped")
        #expect(rig.service.log.contains("Busy (microphone): pw-record."), "log:\n\(rig.service.log)")
        #expect(rig.service.log.contains("No longer busy."), "log:\n\(rig.service.log)")
    }

    @Test func aCameraIsBusyOnlyWhileAnAppWatchesIt() throws {
        let rig = try Rig()
        defer { rig.stop() }
        // A camera as WirePlumber makes one (media.class Video/Source, media.role Camera), unwatched: suspended.
        try rig.pipeWire.videoSource("icare-test-camera", "media.role = Camera")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try rig.busy() == "b false  ", "a camera nobody uses")

        let cheese = try rig.pipeWire.watch("icare-test-camera", as: "Cheese")
        try rig.expectBusy("b true camera Cheese", "an app watching the camera")
        #expect(try rig.running("icare-test-camera"))
        Subprocess.kill9(cheese)
        try rig.expectBusy("b false  ", "the app stopped watching")

        // GNOME Shell's rule is the role alone: an app's own stream with the Camera role counts too.
        let stream = try rig.pipeWire.stream(["pw-record", "--media-role", "Camera", "-P", "{ application.name = Snapshot }",
                                              rig.folder + "/camera.wav"])
        try rig.expectBusy("b true camera Snapshot", "a Camera-role stream")
        Subprocess.kill9(stream)
        try rig.expectBusy("b false  ", "stopped")
        try rig.pipeWire.destroy("icare-test-camera")
    }

    @Test func aScreenCastIsTheScreenShareAndTheCameraComesFirst() throws {
        let rig = try Rig()
        defer { rig.stop() }
        // xdg-desktop-portal-wlr's cast: a Video/Source named xdpw-stream-XXXXXX, read by the browser.
        try rig.pipeWire.videoSource("xdpw-stream-a1b2c3")
        let firefox = try rig.pipeWire.watch("xdpw-stream-a1b2c3", as: "Firefox")
        try rig.expectBusy("b true screen-share Firefox", "a screen cast")

        // KWin's name on a stream the compositor plays, with a call's microphone beside it.
        let silence = try rig.silence()
        let mic = try rig.pipeWire.stream(["pw-record", "-P", "{ application.name = Meeting }", rig.folder + "/voice.wav"])
        #expect(try waitUntil { try rig.running("pw-record") }, "nodes:\n\(rig.pipeWire.nodes)")
        try rig.expectBusy("b true screen-share Firefox", "the cast comes before the microphone")
        let camera = try rig.pipeWire.stream(["pw-record", "--media-role", "Camera", "-P", "{ application.name = Meeting }",
                                              rig.folder + "/camera.wav"])
        try rig.expectBusy("b true camera Meeting", "the camera comes first")
        Subprocess.kill9(camera)
        try rig.expectBusy("b true screen-share Firefox", "then the cast")
        Subprocess.kill9(firefox)
        try rig.expectBusy("b true microphone Meeting", "then the microphone")
        let kwin = try rig.pipeWire.stream(["pw-play", "-P", "{ node.name = kwin-screencast-HEADLESS-1 application.name = KWin }", silence])
        try rig.expectBusy("b true screen-share KWin", "a stream with KWin's cast name")
        Subprocess.kill9(kwin)
        Subprocess.kill9(mic)
        try rig.expectBusy("b false  ", "all stopped")
    }

    @Test func aPipeWireRestartIsFollowed() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let first = try rig.pipeWire.stream(["pw-record", "-P", "{ application.name = Meeting }", rig.folder + "/one.wav"])
        try rig.expectBusy("b true microphone Meeting", "before the crash")

        rig.pipeWire.kill9()
        try rig.expectBusy("b false  ", "PipeWire gone")
        #expect(waitUntil { rig.service.log.contains("Lost PipeWire") }, "log:\n\(rig.service.log)")
        Subprocess.kill9(first)

        try rig.pipeWire.start()
        #expect(waitUntil(timeout: 10) { rig.service.log.contains("PipeWire is running") }, "log:\n\(rig.service.log)")
        _ = try rig.pipeWire.stream(["pw-record", "-P", "{ application.name = Meeting }", rig.folder + "/two.wav"])
        try rig.expectBusy("b true microphone Meeting", "a stream after the restart")
        #expect(rig.service.log.components(separatedBy: "Lost PipeWire").count == 2, "said once")
        #expect(Self.libPipeWireLines(rig.service.log).isEmpty, "libpipewire's own lines in icared's log:\n\(rig.service.log)")
    }

    /// Lines libpipewire's own logger wrote (`[W][…] pw.context …`, `[E] pw.core …`).
    static func libPipeWireLines(_ log: String) -> [Substring] {
        log.split(separator: "\n").filter { $0.contains(" pw.") || $0.contains(" spa.") || $0.contains(" mod.") || $0.hasPrefix("[") }
    }

    @Test func libpipewiresOwnLogStaysOutUnlessAskedFor() throws {
        // By default: a stream comes and goes, and icared's output has only iCare's own lines.
        let rig = try Rig()
        defer { rig.stop() }
        let mic = try rig.pipeWire.stream(["pw-record", "-P", "{ application.name = Meeting }", rig.folder + "/one.wav"])
        try rig.expectBusy("b true microphone Meeting", "recording")
        Subprocess.kill9(mic)
        try rig.expectBusy("b false  ", "stopped")
        #expect(Self.libPipeWireLines(rig.service.log).isEmpty, "libpipewire's own lines in icared's log:\n\(rig.service.log)")

        // Asked for (PIPEWIRE_DEBUG, as for any PipeWire client): libpipewire says what it does.
        let asked = try Rig(environment: ["PIPEWIRE_DEBUG": "4"])
        defer { asked.stop() }
        try asked.expectBusy("b false  ", "started")
        #expect(waitUntil(timeout: 5) { !Self.libPipeWireLines(asked.service.log).isEmpty }, "log:\n\(asked.service.log)")
    }

    @Test func withoutPipeWireTheRestWorksAndItIsSaidOnce() throws {
        let s = try ServiceHarness()
        defer { s.stop() }
        #expect(try s.property("Busy") == "b false")
        let runtime = s.environment["XDG_RUNTIME_DIR"] ?? ""
        #expect(waitUntil { s.log.contains("Busy: PipeWire is not running (no \(runtime)/pipewire-0)") }, "log:\n\(s.log)")
        #expect(s.log.components(separatedBy: "PipeWire is not running").count == 2, "once")
        #expect(try s.string("State") == "waiting")
    }

    /// A machine with libpipewire but not its modules (Debian's libpipewire-0.3-modules): icared's
    /// output, as scripts/run shows it, has only lines icared wrote, one of them saying what is
    /// missing; libpipewire's own words go into icared's debug log.
    @Test func withoutPipeWiresModulesOnlyIcaredSpeaks() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("icare-no-modules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        for debug in [false, true] {
            let s = try ServiceHarness(environment: ["PIPEWIRE_MODULE_DIR": empty.path], start: false)
            defer { s.stop() }
            try s.start(arguments: debug ? ["--log-stderr", "--debug"] : ["--log-stderr"])
            let said = "Busy: libpipewire cannot load its native protocol (No such file or directory; PipeWire's client modules"
            #expect(waitUntil { s.log.contains(said) }, "debug \(debug), log:\n\(s.log)")
            #expect(s.log.components(separatedBy: "cannot load its native protocol").count == 2, "once: \(s.log)")
            #expect(!s.log.contains("PipeWire is not running"), "PipeWire may be running; its modules are missing: \(s.log)")
            let foreign = s.log.split(separator: "\n").filter { !$0.hasPrefix("icared: ") }
            #expect(foreign.isEmpty, "lines icared did not write (debug \(debug)):\n\(foreign.joined(separator: "\n"))")
            #expect(s.log.contains("icared: PipeWire's library says: ") == debug, "libpipewire's words, in icared's debug log only: \(s.log)")
            #expect(try s.string("State") == "waiting")
        }
    }
}
