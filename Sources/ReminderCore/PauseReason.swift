/// The `PauseReason` property: why reminders are off; `""` unless paused.
public enum PauseReason: String, Sendable, CaseIterable {
    /// Not paused.
    case none = ""
    /// `Pause` was called.
    case user
    /// The desktop is in do-not-disturb and `DndPolicy` is `pause`.
    case dnd
    /// The screen is locked, the session inactive, or the machine asleep.
    case locked
    /// A call, a screen share or a video is on and `BusyPolicy` is `pause`.
    case busy
}
