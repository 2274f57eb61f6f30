import Geodesy
import Simulation
import Testing

@testable import Receiver

/// The rover fed a moving base (4072.0 and MSM): its position stays standalone and the vector is
/// time-matched to the base's epoch; an out-of-order 4072 is not taken, a change between a
/// fixed and a moving station starts the corrections over, and a base whose position lags its
/// observations ages the vector and says so.
@Suite struct RTKRoverMovingBaseTests {
  typealias Base = RTKRoverTests

  /// The base's antenna at `seconds`: 2 m north of the rover's place.
  static func movingStation(at seconds: Double, id: Int = 7, northMeters: Double = 2)
    -> CorrectionInput
  {
    let place = GeodeticPosition(
      known: Base.place.latitude + northMeters / 111_200, Base.place.longitude, altitudeMeters: 50)
    return .movingStation(
      stationID: id, position: EarthCenteredPosition(place),
      epochTime: CorrectionInput.epochTime(of: Base.time(seconds), system: .gps))
  }

  /// A rover fed the moving base's position each second of `positions` and its GPS
  /// observations each second up to `until` (exclusive).
  static func rover(positions: [Int], until: Int) -> RTKRover {
    var rover = RTKRover(convergence: RTKConvergence(floatSeconds: 2, fixedSeconds: 3, seed: 1))
    for second in 0..<until {
      let at = Base.time(Double(second))
      if positions.contains(second) { rover.receive(movingStation(at: Double(second)), at: at) }
      rover.receive(Base.observations(7, .gps, Base.gpsUsed, at: at), at: at)
    }
    return rover
  }

  @Test func thePositionStaysStandaloneAndTheVectorConverges() throws {
    let rover = Self.rover(positions: Array(0..<30), until: 30)
    let early = Self.rover(positions: [0], until: 1).solution(for: Base.fix(at: 0.5))
    #expect(early.correction == .none && early.corrections == nil)
    #expect(early.movingBaseline?.level == .differential)
    let late = rover.solution(for: Base.fix(at: 29.5))
    #expect(late.correction == .none && late.corrections == nil)
    let baseline = try #require(late.movingBaseline)
    #expect(baseline.level == .rtkFixed)
    #expect(!baseline.positionMissed && !baseline.observationsMissed)
    // The rover 2 m south of the base.
    #expect(abs(baseline.corrections.north - -2) < 0.01 && abs(baseline.corrections.east) < 1e-6)
    #expect(abs(baseline.corrections.ageSeconds - 0.5) < 1e-9)
  }

  @Test func theVectorIsTimeMatchedToTheBasesEpoch() throws {
    let rover = Self.rover(positions: Array(0..<10), until: 10)
    // The rover's antenna at the base's epoch (9 s): 1 m east of where it is now.
    let then = GeodeticPosition(
      known: Base.place.latitude, Base.place.longitude + 1 / 74_000, altitudeMeters: 50)
    let solved = rover.solution(for: Base.fix(at: 9.9)) { time in
      time == Base.time(9) ? then : Base.place
    }
    let vector = try #require(solved.movingBaseline?.corrections)
    #expect(abs(vector.east - 1.0) < 0.01, "east \(vector.east)")
  }

  @Test func aPositionLaggingTheObservationsAgesTheVectorAndIsMissed() throws {
    // One 4072 at 0 s, observations every second to 20 s.
    let rover = Self.rover(positions: [0], until: 20)
    let baseline = try #require(rover.solution(for: Base.fix(at: 19.5)).movingBaseline)
    #expect(baseline.positionMissed && !baseline.observationsMissed)
    #expect(abs(baseline.corrections.ageSeconds - 19.5) < 1e-9)
    // Older than half the timeout (60 s): not fixed; past the timeout: none.
    let aged = Self.rover(positions: [0], until: 40)
    #expect(aged.solution(for: Base.fix(at: 39.5)).movingBaseline?.level == .rtkFloat)
    let gone = Self.rover(positions: [0], until: 62)
    #expect(gone.solution(for: Base.fix(at: 61.5)).movingBaseline == nil)
  }

  @Test func anOlderPositionIsNotTaken() throws {
    var rover = Self.rover(positions: Array(0..<10), until: 10)
    // A position of 3 s, 10 km away, arriving after the one of 9 s.
    rover.receive(
      Self.movingStation(at: 3, northMeters: 10_000), at: Base.time(9.2))
    let vector = try #require(rover.solution(for: Base.fix(at: 9.5)).movingBaseline)
    #expect(vector.corrections.baselineMeters < 3)
  }

  @Test func aChangeBetweenAFixedAndAMovingStationStartsOver() throws {
    var rover = Self.rover(positions: Array(0..<20), until: 20)
    #expect(rover.solution(for: Base.fix(at: 19.5)).movingBaseline?.level == .rtkFixed)
    // The same station ID sends a 1005: corrections start over, as for a new station.
    rover.receive(RTKRoverTests.station(), at: Base.time(19.8))
    let at = Base.time(20)
    rover.receive(Base.observations(7, .gps, Base.gpsUsed, at: at), at: at)
    let solved = rover.solution(for: Base.fix(at: 20.5))
    #expect(solved.movingBaseline == nil)
    #expect(solved.correction == .differential)
    // And back to a moving base: over again.
    rover.receive(Self.movingStation(at: 21), at: Base.time(21))
    rover.receive(
      Base.observations(7, .gps, Base.gpsUsed, at: Base.time(21)), at: Base.time(21))
    let again = rover.solution(for: Base.fix(at: 21.5))
    #expect(again.correction == .none)
    #expect(again.movingBaseline?.level == .differential)
  }
}
