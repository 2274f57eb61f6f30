import Receiver
import Simulation
import Testing

/// Which systems each profile's chip tracks, and how many at once.
@Suite struct ReceiverProfileTrackingTests {
  @Test func eachChipTracksWhatItsHardwareCan() {
    let all = Set(Constellation.allCases)
    #expect(ReceiverProfile.ubloxM8.tracking == .init(trackable: all, concurrentLimit: 3))
    #expect(ReceiverProfile.ubloxF9P.tracking == .init(trackable: all, concurrentLimit: 4))
    #expect(ReceiverProfile.mtk.tracking == .init(trackable: [.gps, .sbas], concurrentLimit: 1))
    #expect(
      ReceiverProfile.sirf.tracking == .init(trackable: [.gps, .glonass], concurrentLimit: 2))
    #expect(ReceiverProfile.generic.tracking == .init(trackable: all, concurrentLimit: 4))
  }

  @Test func aChoiceBeyondTheChipIsRefusedWithWhatItCanDo() throws {
    #expect(throws: Never.self) {
      try ReceiverProfile.ubloxM8.checkTracking([.gps, .galileo, .beidou])
    }
    // SBAS is no major system: the M8 tracks it beside three.
    #expect(throws: Never.self) {
      try ReceiverProfile.ubloxM8.checkTracking([.gps, .galileo, .beidou, .sbas])
    }
    #expect(throws: Never.self) { try ReceiverProfile.mtk.checkTracking([.gps, .sbas]) }
    #expect(throws: Never.self) {
      try ReceiverProfile.ubloxF9P.checkTracking(Set(Constellation.allCases))
    }
    #expect(
      throws: ReceiverProfile.TrackingError.tooManyAtOnce(
        profile: "ublox-m8", requested: Set(Constellation.allCases),
        capability: ReceiverProfile.ubloxM8.tracking)
    ) { try ReceiverProfile.ubloxM8.checkTracking(Set(Constellation.allCases)) }
    do {
      try ReceiverProfile.mtk.checkTracking([.gps, .glonass])
      Issue.record("an MT3301 took GLONASS")
    } catch {
      #expect(
        error.description == "profile 'mtk' cannot track glonass: it tracks gps only (and sbas)")
    }
  }
}
