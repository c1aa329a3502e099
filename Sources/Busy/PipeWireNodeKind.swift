/// Which PipeWire nodes make the person busy, read from a node's properties
/// (shapes and where they were read in docs/desktop-facts.md, "Busy:
/// PipeWire"). Pure: the source feeds it what PipeWire says.
enum PipeWireNodeKind {
    /// Screen casts: mutter's stream (`pw_stream_new(core, "meta-screen-cast-src", …)`,
    /// which PipeWire keeps as `media.name`, with `node.name` the program's
    /// name), KWin's `kwin-screencast-<output>` and xdg-desktop-portal-wlr's
    /// `xdpw-stream-XXXXXX` (a `Video/Source`).
    static let screenCastNames: Set<String> = ["meta-screen-cast-src"]
    static let screenCastPrefixes = ["kwin-screencast", "xdpw-stream"]
    /// Programs whose capture streams only draw an input level (GNOME Shell's
    /// `js/ui/status/volume.js` skips these two for its microphone indicator).
    static let levelMeterApps: Set<String> = ["org.gnome.VolumeControl", "org.PulseAudio.pavucontrol"]

    /// Whether a node announced on the registry may ever count, from its
    /// global properties (`media.class`, `media.role`, `node.name`): streams
    /// and video sources are followed, audio devices and drivers are not.
    static func worthFollowing(_ props: [String: String]) -> Bool {
        let mediaClass = props["media.class"] ?? ""
        return mediaClass.hasPrefix("Stream/") || mediaClass.hasPrefix("Video/") || props["media.role"] == "Camera"
            || isScreenCast(props)
    }

    /// `screen-share`, `camera` or `microphone` for a node that counts while
    /// it runs; nil for any other.
    static func kind(_ props: [String: String]) -> String? {
        if isScreenCast(props) { return "screen-share" }
        let mediaClass = props["media.class"] ?? ""
        // GNOME Shell's camera indicator (src/shell-camera-monitor.c): any
        // node whose media.role is Camera, while running; WirePlumber gives
        // camera devices media.class Video/Source with that role.
        if props["media.role"] == "Camera" || mediaClass == "Video/Source" { return "camera" }
        if mediaClass == "Stream/Input/Audio", !isLevelMeter(props) { return "microphone" }
        return nil
    }

    static func isScreenCast(_ props: [String: String]) -> Bool {
        for key in ["node.name", "media.name"] {
            guard let name = props[key] else { continue }
            if screenCastNames.contains(name) || screenCastPrefixes.contains(where: name.hasPrefix) { return true }
        }
        return false
    }

    /// A capture stream that reads levels or the speakers, not a voice:
    /// `stream.monitor` (pipewire-pulse sets it for PulseAudio's peak-detect
    /// streams, the level meters of pavucontrol and GNOME Settings),
    /// `stream.capture.sink` (recording what the speakers play), or one of
    /// the level-meter apps by `application.id`.
    static func isLevelMeter(_ props: [String: String]) -> Bool {
        props["stream.monitor"] == "true" || props["stream.capture.sink"] == "true"
            || levelMeterApps.contains(props["application.id"] ?? "")
    }

    /// Who is using it, for `BusyReason`: the application's name, else its
    /// id, else the node's description or name.
    static func who(_ props: [String: String]) -> String {
        for key in ["application.name", "application.id", "node.description", "node.name"] {
            if let value = props[key], !value.isEmpty {
                // Any client names itself: a name is shown, not a screenful.
                return value.count > whoLimit ? String(value.prefix(whoLimit - 1)) + "…" : value
            }
        }
        return ""
    }

    /// The longest name `who` gives, in characters.
    static let whoLimit = 100
}
