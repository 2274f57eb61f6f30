import Servers
import Testing

/// The control socket's shares: a user other than root and the daemon's own holds at most 64
/// connections and none of the last 32 of 256, which only those two (the operator) may take.
@Suite struct ControlAdmissionTests {
  static let own: UInt32 = 1_000

  /// `users` users from uid 2_000 on, holding `each` connections each.
  static func counts(users: Int, each: Int) -> [UInt32: Int] {
    Dictionary(uniqueKeysWithValues: (0..<users).map { (UInt32(2_000 + $0), each) })
  }

  @Test func aUserHoldsItsShareAndNoMore() {
    let decide = { (held: Int) in
      ControlAdmission.decide(peerUID: 65_534, counts: [65_534: held], ownUID: Self.own)
    }
    #expect(decide(ControlAdmission.userShare - 1) == .admitted)
    #expect(decide(ControlAdmission.userShare) == .userShareTaken)
    // Another user is not counted against it.
    #expect(
      ControlAdmission.decide(peerUID: 65_533, counts: [65_534: 64], ownUID: Self.own) == .admitted)
  }

  @Test func theLastSlotsAreKeptForRootAndTheDaemonsUser() {
    // Three users with their whole share and one with 32: 224 open, 32 free.
    var counts = Self.counts(users: 3, each: 64)
    counts[2_003] = 31
    #expect(ControlAdmission.decide(peerUID: 2_003, counts: counts, ownUID: Self.own) == .admitted)
    counts[2_003] = 32
    for user: UInt32 in [2_003, 2_004] {
      #expect(
        ControlAdmission.decide(peerUID: user, counts: counts, ownUID: Self.own)
          == .reservedForOperator)
    }
    for operatorUID: UInt32 in [0, Self.own] {
      #expect(
        ControlAdmission.decide(peerUID: operatorUID, counts: counts, ownUID: Self.own) == .admitted
      )
    }
  }

  @Test func theOperatorHasNoShareButTheTotal() {
    #expect(
      ControlAdmission.decide(peerUID: Self.own, counts: [Self.own: 255], ownUID: Self.own)
        == .admitted)
    #expect(
      ControlAdmission.decide(peerUID: 0, counts: [0: 200, Self.own: 55], ownUID: Self.own)
        == .admitted)
    for peer: UInt32 in [0, Self.own, 2_000] {
      #expect(
        ControlAdmission.decide(peerUID: peer, counts: [0: 128, Self.own: 128], ownUID: Self.own)
          == .full)
    }
  }

  @Test func everyRefusalSaysWhy() {
    #expect(ControlAdmission.Decision.admitted.refusal == nil)
    #expect(ControlAdmission.Decision.full.refusal == "too many control connections")
    #expect(
      ControlAdmission.Decision.userShareTaken.refusal?.contains("of this user (64 at most)")
        == true)
    #expect(ControlAdmission.Decision.reservedForOperator.refusal?.contains("the last 32") == true)
  }
}
