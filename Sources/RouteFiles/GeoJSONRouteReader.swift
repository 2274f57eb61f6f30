import Geodesy
import InputFiles
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
  /// parsed in memory (`JSONParser`), so a larger one is refused before it is read rather than
  /// exhaust memory (a 200 MB file took 5 GB in one allocation and aborted).
  static let maximumFileSize = 32 * 1024 * 1024

  /// The JSON path of every point and diagnostic, kept compact: a point's path is its line's
  /// path and its index (a million points would otherwise keep a million path strings).
  private final class Paths {
    /// The paths written out: lines' and diagnostics'.
    var texts: [String] = []
    /// Each origin: a path of `texts` and, for a point, its index in that line.
    var origins: [(text: Int32, index: Int32)] = []

    /// The path of origin `number`.
    func path(_ number: Int) -> String {
      guard number < origins.count else { return "" }
      let origin = origins[number]
      let text = texts[Int(origin.text)]
      return origin.index < 0 ? text : text + "[\(origin.index)]"
    }
  }

  private let file: String
  private let paths = Paths()
  private var builder: RouteBuilder
  private var timedPointsTrack: Int?

  init(file: String) {
    self.file = file
    let paths = self.paths
    builder = RouteBuilder(file: file) {
      InputLocation(file: file, jsonPath: paths.path($0))
    }
  }

  /// Reads a document and returns the route.
  consuming func read(_ bytes: [UInt8]) throws(InputFileError) -> Route {
    let document: JSONNode
    do {
      document = try JSONParser.parse(bytes)
    } catch {
      throw .invalid([
        InputDiagnostic(
          InputLocation(file: file, line: error.line, column: error.column),
          "malformed JSON: \(error.message)")
      ])
    }
    readObject(document, path: "")
    return try builder.finish(emptyMessage: "expected LineString, MultiLineString or Point")
  }

  /// An origin at `path`, or at element `index` of the array at `path`.
  private mutating func origin(_ path: String, index: Int = -1) -> Int {
    if paths.texts.last != path { paths.texts.append(path) }
    paths.origins.append((Int32(clamping: paths.texts.count - 1), Int32(clamping: index)))
    return paths.origins.count - 1
  }

  private mutating func report(_ message: String, at path: String) {
    builder.report(message, at: origin(path))
  }

  private mutating func readObject(_ value: JSONNode, path: String) {
    guard case .object = value.value else {
      report("\(value.kindName): expected a GeoJSON object", at: path)
      return
    }
    guard case .string(let type) = value["type"]?.value else {
      report("expected a \"type\" string", at: join(path, "type"))
      return
    }
    switch type {
    case "FeatureCollection":
      guard case .array(let features) = value["features"]?.value else {
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

  private mutating func readFeature(_ feature: JSONNode, path: String) {
    guard case .string("Feature") = feature["type"]?.value else {
      report("expected an object whose \"type\" is \"Feature\"", at: path)
      return
    }
    guard let geometry = feature["geometry"] else { return }
    if case .null = geometry.value { return }
    readGeometry(geometry, properties: feature["properties"], path: join(path, "geometry"))
  }

  private mutating func readGeometry(_ geometry: JSONNode, properties: JSONNode?, path: String) {
    let coordinatesPath = join(path, "coordinates")
    let coordinates = geometry["coordinates"] ?? JSONNode(value: .null, line: geometry.line)
    let propertiesPath = String(path.dropLast("geometry".count)) + "properties"
    switch geometry["type"]?.value {
    case .string("LineString"):
      let times = timeList(properties, path: propertiesPath)
      readLine(coordinates, times: times, path: coordinatesPath)
    case .string("MultiLineString"):
      guard case .array(let lines) = coordinates.value else {
        report("\(coordinates.kindName): expected an array of lines", at: coordinatesPath)
        return
      }
      let times = timeList(properties, path: propertiesPath)
      for (index, line) in lines.enumerated() {
        var lineTimes: (values: [JSONNode], path: String)?
        if let times, index < times.values.count {
          let timesPath = times.path + "[\(index)]"
          if case .array(let values) = times.values[index].value {
            lineTimes = (values, timesPath)
          } else {
            report("\(times.values[index].kindName): expected an array of times", at: timesPath)
          }
        }
        readLine(line, times: lineTimes, path: coordinatesPath + "[\(index)]")
      }
    case .string("Point"):
      var time: UTCInstant?
      if let properties, case .string(let text) = properties["time"]?.value {
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
  private mutating func timeList(_ properties: JSONNode?, path: String) -> (
    values: [JSONNode], path: String
  )? {
    for key in ["coordTimes", "times"] {
      guard let value = properties?[key] else { continue }
      guard case .array(let values) = value.value else {
        report("\(value.kindName): expected an array of times", at: join(path, key))
        return nil
      }
      return (values, join(path, key))
    }
    return nil
  }

  private mutating func readLine(
    _ line: JSONNode, times: (values: [JSONNode], path: String)?, path: String
  ) {
    guard case .array(let positions) = line.value else {
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
        guard case .string(let text) = times.values[index].value else {
          report(
            "\(times.values[index].kindName): expected an ISO 8601 time",
            at: times.path + "[\(index)]")
          continue
        }
        guard let parsed = parseTime(text, path: times.path, index: index) else { continue }
        time = parsed
      }
      readPosition(position, time: time, path: path, index: index, track: track, waypoint: false)
    }
  }

  /// The time `text` at `path` (element `index` of the array there, when given).
  private mutating func parseTime(_ text: String, path: String, index: Int? = nil)
    -> UTCInstant?
  {
    do { return try RouteText.time(text) } catch {
      report(
        "time \(RouteText.quoted(text)): \(error)", at: index.map { path + "[\($0)]" } ?? path)
      return nil
    }
  }

  /// Reads the position at `path`, or at element `index` of the array there (its path is
  /// written out only for a diagnostic).
  private mutating func readPosition(
    _ position: JSONNode, time: UTCInstant?, path arrayPath: String, index: Int? = nil,
    track: Int?, waypoint: Bool
  ) {
    var path: String { index.map { arrayPath + "[\($0)]" } ?? arrayPath }
    guard case .array(let values) = position.value, (2...3).contains(values.count) else {
      report("\(position.kindName): expected a position [lon, lat] or [lon, lat, alt]", at: path)
      return
    }
    var numbers: [Double] = []
    for (index, value) in values.enumerated() {
      guard case .number(_, let number) = value.value else {
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
      time: time, at: origin(arrayPath, index: index ?? -1), track: waypoint ? nil : track)
  }

  private func join(_ path: String, _ key: String) -> String {
    path.isEmpty ? key : path + "." + key
  }
}
