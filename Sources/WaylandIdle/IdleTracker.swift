/// What the watch knows about idleness and its timeout, apart from the wire,
/// so the rules can be tested alone. The compositor's notification object has
/// one timeout fixed at its creation; a new timeout means a new object.
///
/// A new object starts its own count from its creation, and only an object
/// that has said `idled` says `resumed`. So while the person is idle the old
/// object is kept (its `resumed` is the return) and the new timeout takes
/// effect at that return.
public struct IdleTracker: Equatable, Sendable {
    /// Whether the compositor said idle and not resumed since.
    public private(set) var idle = false
    /// The timeout of the notification object that exists now, ms (nil: none).
    public private(set) var activeMs: UInt32?
    /// The timeout asked for, ms.
    public private(set) var wantedMs: UInt32

    /// What to do after a step: tell the person's state, and/or replace the
    /// notification object with one for `recreate` ms.
    public struct Step: Equatable, Sendable {
        public var report: Bool?
        public var recreate: UInt32?
        public init(report: Bool? = nil, recreate: UInt32? = nil) {
            self.report = report
            self.recreate = recreate
        }
    }

    public init(timeoutMs: UInt32) { wantedMs = timeoutMs }

    /// A notification object for `ms` was created.
    public mutating func created(ms: UInt32) { activeMs = ms }

    /// The compositor said idle (`idled` / `idle`).
    public mutating func idled() -> Step {
        guard activeMs != nil, !idle else { return Step() }
        idle = true
        return Step(report: true)
    }

    /// The compositor said the person is back (`resumed`).
    public mutating func resumed() -> Step {
        guard idle else { return Step() }
        idle = false
        return Step(report: false, recreate: activeMs != wantedMs ? wantedMs : nil)
    }

    /// A new timeout was asked for: replaced now, or at the return while idle.
    public mutating func setTimeout(ms: UInt32) -> Step {
        wantedMs = ms
        guard let active = activeMs, active != ms, !idle else { return Step() }
        return Step(recreate: ms)
    }

    /// The compositor is gone (or the watch stopped): no object, not idle.
    public mutating func lost() -> Step {
        activeMs = nil
        guard idle else { return Step() }
        idle = false
        return Step(report: false)
    }
}
