/// Whether the person is in a call, sharing the screen, watching a video or
/// in a full-screen window, as the service shows it (`Busy`, `BusySource`, `BusyReason`).
public struct BusyState: Equatable, Sendable {
    /// Something holds the person at the screen.
    public var active: Bool
    /// `camera`, `microphone`, `screen-share`, `video`, `full-screen`, or "" when not busy.
    public var source: String
    /// What the desktop says about it, e.g. "org.mozilla.firefox: Playing video"; "" when not busy.
    public var reason: String

    public init(active: Bool, source: String, reason: String) {
        self.active = active
        self.source = active ? source : ""
        self.reason = active ? reason : ""
    }

    /// The source of a full-screen window the desktop shows no reminder over.
    public static let fullScreen = "full-screen"

    /// Not busy.
    public static let free = BusyState(active: false, source: "", reason: "")
}
