import Testing
@testable import Busy

/// Which PipeWire nodes count, from their properties as the programs that
/// make them set them (docs/desktop-facts.md, "Busy: PipeWire"). The daemon
/// itself is run in PipeWireBusyTests; these are the shapes it cannot make
/// here (mutter's and KWin's casts, a v4l2 camera, pavucontrol).
struct PipeWireNodeKindTests {
    @Test func screenCastsByTheCompositorsNames() {
        // mutter: pw_stream_new(core, "meta-screen-cast-src", …): the name is media.name, node.name the program.
        let mutter = ["media.class": "Stream/Output/Video", "media.name": "meta-screen-cast-src", "node.name": "gnome-shell"]
        #expect(PipeWireNodeKind.kind(mutter) == "screen-share")
        #expect(PipeWireNodeKind.worthFollowing(mutter))
        #expect(PipeWireNodeKind.kind(["media.class": "Stream/Output/Video", "node.name": "kwin-screencast-HDMI-A-1"]) == "screen-share")
        #expect(PipeWireNodeKind.kind(["media.class": "Video/Source", "node.name": "xdpw-stream-k3j9q2"]) == "screen-share")
        #expect(PipeWireNodeKind.kind(["media.class": "Stream/Output/Video", "node.name": "my-screen-cast-src"]) == nil)
    }

    @Test func camerasByRoleOrAsVideoSources() {
        // WirePlumber's camera nodes: media.class Video/Source with media.role Camera.
        #expect(PipeWireNodeKind.kind(["media.class": "Video/Source", "media.role": "Camera", "node.name": "v4l2_input.pci-0000_00_14.0"]) == "camera")
        #expect(PipeWireNodeKind.kind(["media.class": "Video/Source", "node.name": "obs-virtual-camera"]) == "camera")
        #expect(PipeWireNodeKind.kind(["media.class": "Stream/Input/Video", "media.role": "Camera", "application.name": "Firefox"]) == "camera")
        #expect(PipeWireNodeKind.kind(["media.class": "Stream/Input/Video", "application.name": "Firefox"]) == nil)
    }

    @Test func microphonesButNotLevelMeters() {
        #expect(PipeWireNodeKind.kind(["media.class": "Stream/Input/Audio", "application.name": "Zoom"]) == "microphone")
        // pipewire-pulse marks PulseAudio's peak-detect streams (level meters) with stream.monitor.
        #expect(PipeWireNodeKind.kind(["media.class": "Stream/Input/Audio", "stream.monitor": "true"]) == nil)
        #expect(PipeWireNodeKind.kind(["media.class": "Stream/Input/Audio", "stream.capture.sink": "true"]) == nil)
        // GNOME Shell's volume indicator skips these two apps' input streams.
        #expect(PipeWireNodeKind.kind(["media.class": "Stream/Input/Audio", "application.id": "org.PulseAudio.pavucontrol"]) == nil)
        #expect(PipeWireNodeKind.kind(["media.class": "Stream/Input/Audio", "application.id": "org.gnome.VolumeControl"]) == nil)
        #expect(PipeWireNodeKind.kind(["media.class": "Stream/Output/Audio", "application.name": "Rhythmbox"]) == nil)
        #expect(PipeWireNodeKind.kind(["media.class": "Audio/Source", "node.name": "alsa_input.pci"]) == nil)
    }

    @Test func devicesAndDriversAreNotFollowed() {
        #expect(!PipeWireNodeKind.worthFollowing(["media.class": "Audio/Sink", "node.name": "alsa_output"]))
        #expect(!PipeWireNodeKind.worthFollowing(["node.name": "Dummy-Driver"]))
        #expect(PipeWireNodeKind.worthFollowing(["media.class": "Stream/Input/Audio"]))
    }

    @Test func whoIsTheApplication() {
        #expect(PipeWireNodeKind.who(["application.name": "Firefox", "node.name": "Firefox"]) == "Firefox")
        #expect(PipeWireNodeKind.who(["application.id": "org.gnome.Cheese", "node.name": "x"]) == "org.gnome.Cheese")
        #expect(PipeWireNodeKind.who(["node.description": "Built-in Camera", "node.name": "v4l2"]) == "Built-in Camera")
        #expect(PipeWireNodeKind.who([:]) == "")
        let long = PipeWireNodeKind.who(["application.name": String(repeating: "x", count: 5000)])
        #expect(long.count == PipeWireNodeKind.whoLimit && long.hasSuffix("…"))
    }
}
