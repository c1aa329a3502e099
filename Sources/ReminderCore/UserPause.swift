/// A pause the person asked for with `Pause`.
struct UserPause: Equatable, Sendable {
    /// When it ends by itself; nil until `Resume`.
    var until: Timestamp?
}
