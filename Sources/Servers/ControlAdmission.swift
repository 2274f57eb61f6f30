/// Who may open one more connection to the control socket, so that no user allowed in (the
/// socket may be opened to a group with `--control-group`) can lock the operator out with idle
/// connections, which keep their slots.
///
/// At most `total` connections at once. The operator (root, and the daemon's own effective
/// user) may take any free slot; any other user holds at most `userShare` of them, and none of
/// the last `operatorReserve`, so that the operator gets in however the others fill theirs.
/// Users are told apart by the uid the kernel recorded at `connect` (`SO_PEERCRED`).
///
/// Pure: the server counts its connections per user and refuses what this refuses.
package enum ControlAdmission {
  /// The most connections at once.
  package static let total = 256
  /// The most connections of one user other than the operator.
  package static let userShare = 64
  /// The last free slots, which only the operator may take.
  package static let operatorReserve = 32

  /// Whether a connection is served, and why not.
  package enum Decision: Hashable, Sendable {
    case admitted
    /// `total` connections are open.
    case full
    /// The user holds `userShare` connections already.
    case userShareTaken
    /// Only the operator's reserve is free.
    case reservedForOperator

    /// The words of the refusal sent to the client; nil when admitted.
    package var refusal: String? {
      switch self {
      case .admitted: nil
      case .full: "too many control connections"
      case .userShareTaken:
        "too many control connections of this user (\(ControlAdmission.userShare) at most)"
      case .reservedForOperator:
        "too many control connections (the last \(ControlAdmission.operatorReserve) are kept "
          + "for root and the daemon's user)"
      }
    }
  }

  /// Decides for a connection of `peerUID`, given the connections open now per uid (`counts`)
  /// and the daemon's effective uid (`ownUID`).
  package static func decide(peerUID: UInt32, counts: [UInt32: Int], ownUID: UInt32) -> Decision {
    let open = counts.values.reduce(0, +)
    guard open < total else { return .full }
    if peerUID == 0 || peerUID == ownUID { return .admitted }
    guard counts[peerUID, default: 0] < userShare else { return .userShareTaken }
    guard open < total - operatorReserve else { return .reservedForOperator }
    return .admitted
  }
}
