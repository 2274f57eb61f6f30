import RouteFiles
import Testing

/// A route file with more points than a route holds is refused when the point past the cap is
/// read, in one diagnostic that names the cap and where that point is, whatever the format: the
/// readers stop there instead of filling memory.
@Suite struct RoutePointCapTests {
  /// Six points in each format, the sixth on line 7 (GeoJSON: `coordinates[5]` there).
  @Test(arguments: [
    ("t.csv", "lat,lon\n" + String(repeating: "1,2\n", count: 6), "t.csv:7"),
    (
      "t.gpx",
      "<gpx>\n" + String(repeating: "<trkpt lat=\"1\" lon=\"2\"/>\n", count: 6) + "</gpx>\n",
      "t.gpx:7"
    ),
    (
      "t.kml",
      "<kml><LineString><coordinates>\n" + String(repeating: "2,1\n", count: 6)
        + "</coordinates></LineString></kml>\n", "t.kml:7"
    ),
    (
      "t.json",
      #"{"type": "LineString", "coordinates": ["#
        + Array(repeating: "\n[2, 1]", count: 6).joined(separator: ",") + "]}",
      "t.json:7:1: coordinates[5]"
    ),
  ])
  func theSixthPointOfFiveIsRefused(name: String, text: String, place: String) {
    let found = RouteFile.$pointLimit.withValue(5) { diagnostics { try parse(text, name: name) } }
    #expect(
      found == [
        place + ": more than 5 points: a route holds at most 5; thin the track"
          + " (gpsbabel -x simplify) or split it"
      ])
    #expect(throws: Never.self) {
      try RouteFile.$pointLimit.withValue(6) { try parse(text, name: name) }
    }
  }

  /// A LineString far past the cap stops being read at once: the text after its first
  /// `cap + diagnosticLimit + 1` positions is not read (here it is malformed, and the cap is the
  /// only diagnostic), whether its times come before it or not.
  @Test(arguments: [false, true])
  func aLineFarPastTheCapIsNotReadToItsEnd(timed: Bool) {
    let count = 1000
    let times = (0..<count).map { index in
      let (minutes, seconds) = index.quotientAndRemainder(dividingBy: 60)
      return "\"2020-01-01T10:\(minutes < 10 ? "0" : "")\(minutes):"
        + "\(seconds < 10 ? "0" : "")\(seconds)Z\""
    }
    let properties =
      timed ? #""properties": {"coordTimes": ["# + times.joined(separator: ",") + "]}, " : ""
    let text =
      #"{"type": "Feature", "# + properties
      + #""geometry": {"type": "LineString", "coordinates": ["#
      + Array(repeating: "\n[2, 1]", count: count).joined(separator: ",") + ", ]]]} garbage"
    let found = RouteFile.$pointLimit.withValue(5) {
      diagnostics { try parse(text, name: "t.json") }
    }
    #expect(
      found == [
        "t.json:7:1: geometry.coordinates[5]: more than 5 points: a route holds at most 5; thin"
          + " the track (gpsbabel -x simplify) or split it"
      ])
  }
}
