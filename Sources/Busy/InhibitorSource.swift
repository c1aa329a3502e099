import DBusKit

/// One source of the busy state: a desktop's record of who holds off its
/// screen saver, or PipeWire's graph. Each follows its program (a bus name
/// and its change signals, or PipeWire's socket and events; never polls)
/// and reports `free` while the program is absent.
protocol InhibitorSource: AnyObject {
    /// A short name for the log (`GNOME's session manager`).
    var name: String { get }
    /// What the log says, once, while the program is absent.
    var absence: String { get }
    /// What the source says now.
    var state: BusyState { get }
    /// Whether its program is on the bus (nil until the first look).
    var present: Bool? { get }
    /// Runs after `state` or `present` changed.
    var onChange: (() -> Void)? { get set }
    func start()
}

extension InhibitorSource {
    var absence: String { "\(name) is not on the session bus; its inhibitors are watched once it appears" }
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
