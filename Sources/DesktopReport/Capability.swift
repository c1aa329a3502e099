import Localization

/// One thing a person expects of iCare, and whether it works on this desktop
/// now, with why in plain words: an entry of the `Capabilities` property,
/// `(sss)` = (name, state, words). `icarectl doctor`, the app and the ring
/// read it; docs/interface.md lists the names and states.
public struct Capability: Equatable, Sendable {
    /// Whether it works here.
    public enum State: String, Sendable, CaseIterable {
        /// It works as a person expects.
        case works
        /// It works in part: the words say what is missing.
        case limited
        /// It does not work here: the words say why.
        case missing
        /// Turned off by a setting, or nothing to do (no phone paired): not a fault.
        case off
    }

    /// The stable names, in the order they are listed.
    public enum Name: String, Sendable, CaseIterable {
        case buttons = "reminder-buttons"
        case doNotDisturb = "do-not-disturb"
        case timeAway = "time-away"
        case calls
        case ring
        case sounds
        case phones
        case login
        case sandbox
    }

    public let name: Name
    public let state: State
    public let words: String

    public init(_ name: Name, _ state: State, _ words: String) {
        self.name = name
        self.state = state
        self.words = words
    }

    /// What the name stands for, as a heading (`icarectl doctor`, the app).
    public var title: String {
        switch name {
        case .buttons: return tr("Reminder buttons")
        case .doNotDisturb: return tr("Do not disturb")
        case .timeAway: return tr("Time away")
        case .calls: return tr("Calls and full screen")
        case .ring: return tr("The ring")
        case .sounds: return tr("Sounds")
        case .phones: return tr("Phones")
        case .login: return tr("Starting at login")
        case .sandbox: return tr("Sandbox")
        }
    }
}
