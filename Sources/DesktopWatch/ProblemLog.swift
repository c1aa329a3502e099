import SystemdKit

/// The kinds of garbage a provider can send; each is logged once per provider.
public enum ProblemKind: String, Sendable {
    /// A change signal with the wrong signature or content.
    case signal
    /// A reply of the wrong type, or an unexpected error reply.
    case reply
    /// A setting stored with the wrong type.
    case value
    /// The dconf database could not be read or parsed.
    case file
    /// The fallback file watch could not be set up.
    case watch
}

/// Logs each (provider, kind) problem once, so a chatty broken provider
/// cannot flood the journal; later occurrences are only counted. One log
/// serves one feature (do-not-disturb, busy, …): its lines begin with the
/// feature's name and carry its journal fields.
public final class ProblemLog {
    private let log: Log
    private let feature: String
    private let usualConsequence: String
    /// How often each `provider/kind` occurred (tests read this).
    public private(set) var occurrences: [String: Int] = [:]
    /// How many lines were actually logged (tests read this).
    public private(set) var linesLogged = 0

    /// `feature` begins each line ("Do-not-disturb"); `usualConsequence` is what iCare does
    /// about a problem unless the report says otherwise.
    public init(log: Log, feature: String = "Do-not-disturb", usualConsequence: String = "treating it as not in do-not-disturb") {
        self.log = log
        self.feature = feature
        self.usualConsequence = usualConsequence
    }

    /// Notes a problem; logs it (with what iCare does about it) only the first time.
    public func report(_ provider: String, _ kind: ProblemKind, _ detail: String, consequence: String? = nil) {
        let key = "\(provider)/\(kind.rawValue)"
        let count = occurrences[key, default: 0]
        occurrences[key] = count + 1
        guard count == 0 else { return }
        linesLogged += 1
        let sentence = detail.hasSuffix(".") ? String(detail.dropLast()) : detail
        log.warning("\(feature): \(provider): \(sentence); \(consequence ?? usualConsequence) (logged once).",
                    fields: [("ICARE_DND_PROVIDER", provider), ("ICARE_DND_PROBLEM", kind.rawValue)])
    }
}
