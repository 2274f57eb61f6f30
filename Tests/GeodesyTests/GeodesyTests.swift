import Geodesy
import Testing

@Suite struct GeodeticPositionTests {
  @Test(arguments: [
    (90.5, 0.0, "latitude 90.5 is outside -90...90"),
    (0.0, -180.01, "longitude -180.01 is outside -180...180"),
    (Double.nan, 0.0, "latitude nan is outside -90...90"),
  ])
  func refusesOutOfRangeCoordinates(latitude: Double, longitude: Double, message: String) {
    do {
      _ = try GeodeticPosition(latitude: latitude, longitude: longitude)
      Issue.record("accepted \(latitude),\(longitude)")
    } catch {
      #expect(error.description == message)
    }
  }
}

@Suite struct DilutionOfPrecisionTests {
  @Test func fourSatellitesAtZenithAndHorizonGiveTheTextbookValues() throws {
    // One at zenith, three 120° apart on the horizon. By hand: GᵀG has east and north 1.5,
    // and the up/clock block [[1, -1], [-1, 4]], whose inverse is [[4/3, 1/3], [1/3, 1/3]].
    // So HDOP = sqrt(2/3 + 2/3), VDOP = sqrt(4/3), PDOP = sqrt(8/3), TDOP = sqrt(1/3).
    let dop = try #require(
      DilutionOfPrecision(directions: [(0, 90), (0, 0), (120, 0), (240, 0)]))
    #expect(abs(dop.horizontal - (4.0 / 3).squareRoot()) < 1e-9)
    #expect(abs(dop.vertical - (4.0 / 3).squareRoot()) < 1e-9)
    #expect(abs(dop.position - (8.0 / 3).squareRoot()) < 1e-9)
    #expect(abs(dop.time - (1.0 / 3).squareRoot()) < 1e-9)
  }

  @Test func fewerThanFourOrCoplanarSatellitesGiveNone() {
    #expect(DilutionOfPrecision(directions: [(0, 90), (0, 0), (120, 0)]) == nil)
    #expect(DilutionOfPrecision(directions: [(0, 30), (90, 30), (180, 30), (270, 30)]) == nil)
  }
}
