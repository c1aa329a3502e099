import DBusKit

/// One desktop's record of who holds off its screen saver, as a busy state.
/// Each source follows its program's bus name and change signals (never
/// polls) and reports `free` while the program is absent.
protocol InhibitorSource: AnyObject {
    /// A short name for the log (`GNOME's session manager`).
    var name: String { get }
    /// What the source says now.
    var state: BusyState { get }
    /// Whether its program is on the bus (nil until the first look).
    var present: Bool? { get }
    /// Runs after `state` or `present` changed.
    var onChange: (() -> Void)? { get set }
    func start()
}

/// "app id: reason", or whichever of the two is given.
func inhibitorReason(app: String, why: String) -> String {
    switch (app.isEmpty, why.isEmpty) {
    case (false, false): return "\(app): \(why)"
    case (false, true): return app
    default: return why
    }
}

extension Message {
    /// The arguments when the body is exactly `signature`; nil otherwise.
    func body(_ signature: String) -> [DBusValue]? {
        guard self.signature == signature, let args = try? arguments() else { return nil }
        return args
    }
}
