import Geodesy
import Simulation

/// Reads GeoJSON: a `FeatureCollection` (features in order), a `Feature`, or a bare geometry.
///
/// `LineString` and each line of a `MultiLineString` are tracks of `[lon, lat, alt?]`
/// positions. Their times, when present, are `properties.coordTimes` or `properties.times`, one
/// ISO 8601 string a position (an array of arrays for a `MultiLineString`), as togeojson writes;
/// GPSBabel's GeoJSON carries no time. A `Point` feature with `properties.time` joins the track
/// of timed points; one without is a waypoint, used only when the file has no line.
struct GeoJSONRouteReader {
  /// The largest GeoJSON file read (32 MiB, over a million points): the whole document is
  /// decoded in memory, at about 13 times its size, so a larger one is refused before it is
  /// read rather than exhaust memory (a 200 MB file took 5 GB in one allocation and aborted).
  static let maximumFileSize = 32 * 1024 * 1024

  private final class Paths {
    var paths: [String] = []
  }

  private let file: String
  private let paths = Paths()
  private var builder: RouteBuilder
  private var timedPointsTrack: Int?

  init(file: String) {
    self.file = file
    let paths = self.paths
    builder = RouteBuilder(file: file) {
      InputLocation(file: file, jsonPath: $0 < paths.paths.count ? paths.paths[$0] : "")
    }
  }

  /// Reads a document and returns the route.
  consuming func read(_ bytes: [UInt8]) throws(InputFileError) -> Route {
    switch JSONValue.parse(bytes) {
    case .failure(let error):
      throw .invalid([Self.syntaxDiagnostic(bytes, file: file, decoderMessage: error.message)])
    case .success(let document):
      readObject(document, path: "")
    }
    return try builder.finish(emptyMessage: "expected LineString, MultiLineString or Point")
  }

  /// Where the text stops being JSON: `JSONDecoder` names no line, so the JSON parser of the
  /// scenario files reads it again to say where (only for a file that failed). Without a
  /// place (a text that parser takes), the decoder's own message.
  static func syntaxDiagnostic(_ bytes: [UInt8], file: String, decoderMessage: String)
    -> InputDiagnostic
  {
    do {
      _ = try JSONParser.parse(bytes)
    } catch {
      return InputDiagnostic(
        InputLocation(file: file, line: error.line, column: error.column),
        "malformed JSON: \(error.message)")
    }
    return InputDiagnostic(InputLocation(file: file), "malformed JSON: \(decoderMessage)")
  }

  private mutating func origin(_ path: String) -> Int {
    paths.paths.append(path)
    return paths.paths.count - 1
  }

  private mutating func report(_ message: String, at path: String) {
    builder.report(message, at: origin(path))
  }

  private mutating func readObject(_ value: JSONValue, path: String) {
    guard case .object = value else {
      report("\(value.kindName): expected a GeoJSON object", at: path)
      return
    }
    guard case .string(let type) = value["type"] else {
      report("expected a \"type\" string", at: join(path, "type"))
      return
    }
    switch type {
    case "FeatureCollection":
      guard case .array(let features) = value["features"] else {
        report("expected an array of features", at: join(path, "features"))
        return
      }
      for (index, feature) in features.enumerated() where !builder.isFull {
        readFeature(feature, path: join(path, "features") + "[\(index)]")
      }
    case "Feature":
      readFeature(value, path: path)
    default:
      readGeometry(value, properties: nil, path: path)
    }
  }

  private mutating func readFeature(_ feature: JSONValue, path: String) {
    guard case .string("Feature") = feature["type"] else {
      report("expected an object whose \"type\" is \"Feature\"", at: path)
      return
    }
    let geometry = feature["geometry"] ?? .null
    if case .null = geometry { return }
    readGeometry(geometry, properties: feature["properties"], path: join(path, "geometry"))
  }

  private mutating func readGeometry(_ geometry: JSONValue, properties: JSONValue?, path: String) {
    let coordinatesPath = join(path, "coordinates")
    let coordinates = geometry["coordinates"] ?? .null
    let propertiesPath = String(path.dropLast("geometry".count)) + "properties"
    switch geometry["type"] {
    case .string("LineString"):
      let times = timeList(properties, path: propertiesPath)
      readLine(coordinates, times: times, path: coordinatesPath)
    case .string("MultiLineString"):
      guard case .array(let lines) = coordinates else {
        report("\(coordinates.kindName): expected an array of lines", at: coordinatesPath)
        return
      }
      let times = timeList(properties, path: propertiesPath)
      for (index, line) in lines.enumerated() {
        var lineTimes: (values: [JSONValue], path: String)?
        if let times, index < times.values.count {
          let timesPath = times.path + "[\(index)]"
          if case .array(let values) = times.values[index] {
            lineTimes = (values, timesPath)
          } else {
            report("\(times.values[index].kindName): expected an array of times", at: timesPath)
          }
        }
        readLine(line, times: lineTimes, path: coordinatesPath + "[\(index)]")
      }
    case .string("Point"):
      var time: UTCInstant?
      if let properties, case .string(let text) = properties["time"] {
        guard let parsed = parseTime(text, path: join(propertiesPath, "time")) else { return }
        time = parsed
      }
      if time != nil, timedPointsTrack == nil {
        builder.beginTrack()
        timedPointsTrack = builder.currentTrack
      }
      readPosition(
        coordinates, time: time, path: coordinatesPath, track: timedPointsTrack,
        waypoint: time == nil)
    case .string(let type):
      report(
        "geometry type \(RouteText.quoted(type)): expected LineString, MultiLineString or Point",
        at: join(path, "type"))
    default:
      report("expected a geometry with a \"type\" string", at: path)
    }
  }

  /// `properties.coordTimes` or `properties.times`, when the properties have one.
  private mutating func timeList(_ properties: JSONValue?, path: String) -> (
    values: [JSONValue], path: String
  )? {
    for key in ["coordTimes", "times"] {
      guard let value = properties?[key] else { continue }
      guard case .array(let values) = value else {
        report("\(value.kindName): expected an array of times", at: join(path, key))
        return nil
      }
      return (values, join(path, key))
    }
    return nil
  }

  private mutating func readLine(
    _ line: JSONValue, times: (values: [JSONValue], path: String)?, path: String
  ) {
    guard case .array(let positions) = line else {
      report("\(line.kindName): expected an array of positions", at: path)
      return
    }
    if let times, times.values.count != positions.count {
      report(
        "\(times.values.count) times for \(positions.count) positions: expected one time a"
          + " position", at: times.path)
      return
    }
    builder.beginTrack()
    let track = builder.currentTrack
    for (index, position) in positions.enumerated() where !builder.isFull {
      var time: UTCInstant?
      if let times {
        let timePath = times.path + "[\(index)]"
        guard case .string(let text) = times.values[index] else {
          report("\(times.values[index].kindName): expected an ISO 8601 time", at: timePath)
          continue
        }
        guard let parsed = parseTime(text, path: timePath) else { continue }
        time = parsed
      }
      readPosition(position, time: time, path: path + "[\(index)]", track: track, waypoint: false)
    }
  }

  private mutating func parseTime(_ text: String, path: String) -> UTCInstant? {
    do { return try RouteText.time(text) } catch {
      report("time \(RouteText.quoted(text)): \(error)", at: path)
      return nil
    }
  }

  private mutating func readPosition(
    _ position: JSONValue, time: UTCInstant?, path: String, track: Int?, waypoint: Bool
  ) {
    guard case .array(let values) = position, (2...3).contains(values.count) else {
      report("\(position.kindName): expected a position [lon, lat] or [lon, lat, alt]", at: path)
      return
    }
    var numbers: [Double] = []
    for (index, value) in values.enumerated() {
      guard case .number(let number) = value else {
        report("\(value.kindName): expected a number", at: path + "[\(index)]")
        return
      }
      numbers.append(number)
    }
    do {
      _ = try GeodeticPosition(
        latitude: numbers[1], longitude: numbers[0],
        altitudeMeters: numbers.count == 3 ? numbers[2] : 0)
    } catch {
      let index: Int
      switch error {
      case .longitude: index = 0
      case .latitude: index = 1
      case .altitude: index = 2
      }
      report(error.description, at: path + "[\(index)]")
      return
    }
    builder.addPoint(
      latitude: numbers[1], longitude: numbers[0], altitude: numbers.count == 3 ? numbers[2] : nil,
      time: time, at: origin(path), track: waypoint ? nil : track)
  }

  private func join(_ path: String, _ key: String) -> String {
    path.isEmpty ? key : path + "." + key
  }
}
