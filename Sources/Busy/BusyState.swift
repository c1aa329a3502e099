/// Whether the person is in a call, sharing the screen or watching a video,
/// as the service shows it (`Busy`, `BusySource`, `BusyReason`).
public struct BusyState: Equatable, Sendable {
    /// Something holds the person at the screen.
    public var active: Bool
    /// `camera`, `microphone`, `screen-share`, `video`, or "" when not busy.
    public var source: String
    /// What the desktop says about it, e.g. "org.mozilla.firefox: Playing video"; "" when not busy.
    public var reason: String

    public init(active: Bool, source: String, reason: String) {
        self.active = active
        self.source = active ? source : ""
        self.reason = active ? reason : ""
    }

    /// Not busy.
    public static let free = BusyState(active: false, source: "", reason: "")
}
