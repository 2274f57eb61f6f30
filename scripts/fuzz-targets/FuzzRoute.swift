import Geodesy
import InputFiles
import RouteFiles
import Simulation

/// The `route` target: `RouteFile.parse` on the bytes, whatever format their content says.
///
/// A route that loads has at least one point, every coordinate in range and times that only go
/// forward; a refusal has between one and `InputFileError.diagnosticLimit` diagnostics, each
/// one line long and naming the file.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  do {
    let route = try RouteFile.parse(bytes: bytes, name: "fuzz.route")
    guard !route.points.isEmpty else { failure("a route without points loaded") }
    var previous: UTCInstant?
    for point in route.points {
      let position = point.position
      guard (-90...90).contains(position.latitude), (-180...180).contains(position.longitude),
        position.altitudeMeters.isFinite
      else { failure("position out of range: \(position)") }
      if let time = point.time, let before = previous, time <= before {
        failure("time \(time) after \(before)")
      }
      previous = point.time
    }
  } catch {
    guard case .invalid(let diagnostics) = error else {
      failure("parsing bytes reported an unreadable file: \(error)")
    }
    guard (1...InputFileError.diagnosticLimit).contains(diagnostics.count) else {
      failure("\(diagnostics.count) diagnostics")
    }
    for diagnostic in diagnostics {
      let text = diagnostic.description
      guard text.hasPrefix("fuzz.route"), !text.contains("\n") else {
        failure("diagnostic \(text.debugDescription)")
      }
    }
  }
}

/// Small routes in the formats without a fixture file (the GPX and KML fixtures are seeds too).
let builtInSeeds: [[UInt8]] = [
  "lat,lon,alt,time\n45.5,14.25,100,2020-01-01T00:00:00Z\n45.6,14.3,,2020-01-01T00:00:01Z\n",
  "No,Latitude,Longitude,Altitude,Date,Time\n1,37.241738,-121.972324,104.0,2017/07/29,14:46:35\n",
  "\"lng\";\"lat\"\r\n14.25;45.5\r\n\r\n15;46\r\n",
  #"{"type":"LineString","coordinates":[[14.25,45.5,100],[15,46]]}"#,
  #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"coordTimes":["#
    + #""2020-01-01T00:00:00Z","2020-01-01T00:00:01+02:00"]},"geometry":{"type":"LineString","#
    + #""coordinates":[[1,2],[1,2.5]]}},{"type":"Feature","properties":{"time":"#
    + #""2020-01-01T00:00:02Z"},"geometry":{"type":"Point","coordinates":[1,3]}},{"type":"#
    + #""Feature","geometry":{"type":"MultiLineString","coordinates":[[[1,3]],[[1,4]]]}}]}"#,
  "<gpx><wpt lat=\"1\" lon=\"2\"><ele>3</ele><time>2020-01-01T00:00:00Z</time></wpt></gpx>",
].map { Array($0.utf8) }
