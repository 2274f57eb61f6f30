import RouteFiles
import Testing

/// Coordinates in every decimal form a file may use (`NumberSpelling`'s, which
/// `NumberSpellingEntryPointTests` holds every reader to), short ones converted without the standard
/// library and long ones by it, read to the same bits as `Double(_:)` reads them.
@Suite struct CoordinateNumberTests {
  @Test func decimalsReadToTheSameBitsAsTheStandardLibrary() throws {
    let texts = [
      "45.772175035", "-121.9723242", "0", "-0.0", "7", "7.50", "-0.000001", "89.999999999999",
      "12.3456789012345", "12.34567890123456", "-0.1234567890123456789", "1e1", " 3.25 ",
      "-89.99999999999997", "0.30000000000000004",
    ]
    var gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><rte>\n"
    for text in texts {
      gpx += "<rtept lat=\"0\" lon=\"\(text)\"><ele>\(text)</ele></rtept>\n"
    }
    gpx += "</rte></gpx>\n"

    let route = try RouteFile.parse(bytes: Array(gpx.utf8), name: "numbers.gpx")

    #expect(route.points.count == texts.count)
    for (point, text) in zip(route.points, texts) {
      let expected = try #require(Double(text.filter { $0 != " " }))
      #expect(point.position.longitude.bitPattern == expected.bitPattern, "\(text)")
      #expect(point.position.altitudeMeters.bitPattern == expected.bitPattern, "\(text)")
    }
  }
}
