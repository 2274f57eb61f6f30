import Geodesy
import RouteFiles
import Simulation
import Testing

/// Every real route file in `Tests/Fixtures/routes/` loads, with the points another reader sees.
///
/// The expected values were read once with Python's `xml.etree.ElementTree`, independently of
/// this code: for GPX, the `trkpt`/`rtept` elements (else the `wpt`) of the timed tracks when any
/// track is timed, else of every track; for KML, the `Point` placemarks that have a
/// `TimeStamp/when` (cerknicko-jezero.kml) or the `when`/`gx:coord` pairs. Coordinates are the
/// attribute or tuple text, times the `time`/`when` text.
@Suite struct RealFixtureTests {
  struct Expected: CustomTestStringConvertible, Sendable {
    var file: String
    var count: Int
    var first: (latitude: Double, longitude: Double, altitude: Double, time: String?)
    var last: (latitude: Double, longitude: Double, altitude: Double, time: String?)
    var name: String?
    var testDescription: String { file }
  }

  static let expectations: [Expected] = [
    Expected(
      file: "cerknicko-jezero.gpx", count: 296,
      first: (45.772175035, 14.357659249, 542.320923, "2010-08-05T14:23:59Z"),
      last: (45.790873384, 14.304442042, 562.508545, "2010-08-05T16:23:49Z"),
      name: "ACTIVE LOG #2"),
    Expected(
      file: "ecology-trail-and-lovers-lane-loop.gpx", count: 139,
      first: (37.79804000, -122.457440, 28, nil), last: (37.79804000, -122.457440, 28, nil),
      name: "Trail Planner Map on AllTrails"),
    Expected(
      file: "garmin-activity.gpx", count: 988,
      first: (
        37.24173816852271556854248046875, -121.9723242335021495819091796875, 104,
        "2017-07-29T14:46:35.000Z"
      ),
      last: (
        37.240441404283046722412109375, -121.97119376622140407562255859375,
        98.40000152587890625, "2017-07-29T16:18:13.000Z"
      ),
      name: "casual stroll"),
    Expected(
      file: "garmin_with_extensions.gpx", count: 3540,
      first: (47.4844814278, 10.9756895620, 860.00, "2019-05-01T04:31:11Z"),
      last: (47.4845455494, 10.9758830164, 807.38, "2019-05-01T14:41:35Z"),
      name: "2019-05-01 06:31:11 Tag"),
    // 358 untimed points in '03-OCT-10 #2', then the timed 'ACTIVE LOG' (176) and
    // 'ACTIVE LOG #2' (337): only the timed tracks make the route.
    Expected(
      file: "korita-zbevnica.gpx", count: 513,
      first: (45.452595614, 14.018194014, 753.330322, "2010-10-03T09:36:30Z"),
      last: (45.452453708, 14.018215053, 770.634033, "2010-10-03T13:19:31Z"),
      name: "ACTIVE LOG"),
    Expected(
      file: "route.gpx", count: 55, first: (45.2787641494, 13.726695478, 0, nil),
      last: (45.2787783011, 13.7266552448, 0, nil), name: nil),
    // 296 timestamped Point placemarks beside 7 untimed LineStrings (the first named 'Path').
    Expected(
      file: "cerknicko-jezero.kml", count: 296,
      first: (45.772175, 14.357659, 542.320923, "2010-08-05T14:23:59Z"),
      last: (45.790873, 14.304442, 562.508545, "2010-08-05T16:23:49Z"), name: "Path"),
    Expected(
      file: "sample-gx-track.kml", count: 45,
      first: (46.586349, 0.309042, 111.4, "2019-11-07T08:44:12Z"),
      last: (46.575615, 0.295266, 267.6, "2019-11-07T08:47:08.001Z"), name: nil),
  ]

  @Test(arguments: expectations)
  func loadsWithThePointsAnotherReaderSees(_ expected: Expected) throws {
    let route = try RouteFile.load(path: fixturePath(expected.file))
    #expect(route.points.count == expected.count)
    #expect(route.name == expected.name)
    let first = try #require(route.points.first)
    let last = try #require(route.points.last)
    for (point, values) in [(first, expected.first), (last, expected.last)] {
      #expect(point.position.latitude == values.latitude)
      #expect(point.position.longitude == values.longitude)
      #expect(point.position.altitudeMeters == values.altitude)
      #expect(point.time == (try values.time.map(instant)))
    }
    #expect(route.isTimed == (expected.first.time != nil))
  }
}
