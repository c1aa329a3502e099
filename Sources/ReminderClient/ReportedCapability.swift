import DBusKit
import DesktopReport

/// One entry of the service's `Capabilities`, as sent: names and states this
/// client does not know (a newer service's) are kept as they are.
public struct ReportedCapability: Equatable, Sendable {
    public let name: String, state: String, words: String

    public init(name: String, state: String, words: String) {
        self.name = name
        self.state = state
        self.words = words
    }

    /// From a `(sss)` structure; nil for anything else.
    init?(_ value: DBusValue) {
        guard let fields = value.structure, fields.count == 3,
              let name = fields[0].string, let state = fields[1].string, let words = fields[2].string else { return nil }
        self.init(name: name, state: state, words: words)
    }

    /// The heading a person reads (the name itself when this client does not know it).
    public var title: String { Capability.Name(rawValue: name).map { Capability($0, .works, "").title } ?? name }

    /// Something a person would expect that does not work here (`limited` or `missing`; an unknown state counts too).
    public var fails: Bool { state != Capability.State.works.rawValue && state != Capability.State.off.rawValue }
}
