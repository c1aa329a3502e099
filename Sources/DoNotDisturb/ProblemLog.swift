import SystemdKit

/// The kinds of garbage a provider can send; each is logged once per provider.
enum ProblemKind: String, Sendable {
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
/// cannot flood the journal; later occurrences are only counted.
final class ProblemLog {
    private let log: Log
    /// How often each `provider/kind` occurred (tests read this).
    private(set) var occurrences: [String: Int] = [:]
    /// How many lines were actually logged (tests read this).
    private(set) var linesLogged = 0

    init(log: Log) { self.log = log }

    /// Notes a problem; logs it (with what iCare does about it) only the first time.
    func report(_ provider: String, _ kind: ProblemKind, _ detail: String,
                consequence: String = "treating it as not in do-not-disturb") {
        let key = "\(provider)/\(kind.rawValue)"
        let count = occurrences[key, default: 0]
        occurrences[key] = count + 1
        guard count == 0 else { return }
        linesLogged += 1
        let sentence = detail.hasSuffix(".") ? String(detail.dropLast()) : detail
        log.warning("Do-not-disturb: \(provider): \(sentence); \(consequence) (logged once).",
                    fields: [("ICARE_DND_PROVIDER", provider), ("ICARE_DND_PROBLEM", kind.rawValue)])
    }
}
