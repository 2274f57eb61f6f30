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
  /// The JSON path of every point and diagnostic, kept compact: a point's path is its line's
  /// path and its index (a million points would otherwise keep a million path strings).
  private final class Paths {
    /// Where a point or diagnostic is: a path of `texts`, for a point its index in that line,
    /// and the line and column of the value.
    struct Origin {
      var text: Int32
      var index: Int32
      var line: Int32
      var column: Int32
    }

    /// The paths written out: lines' and diagnostics'.
    var texts: [String] = []
    /// Every origin, numbered from 0.
    var origins: [Origin] = []

    /// The location of origin `number` in `file`: its line, column and path.
    func location(_ number: Int, in file: String) -> InputLocation {
      guard number < origins.count else { return InputLocation(file: file, jsonPath: "") }
      let origin = origins[number]
      let text = texts[Int(origin.text)]
      return InputLocation(
        file: file, line: Int(origin.line), column: Int(origin.column),
        jsonPath: origin.index < 0 ? text : text + "[\(origin.index)]")
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
      paths.location($0, in: file)
    }
  }

  /// Reads the document in `source` and returns the route. The features of a collection are
  /// read one at a time, and a track's positions kept packed (`GeoJSONNode`), so memory grows
  /// with the points, not with the text.
  consuming func read(_ source: ByteSource) throws(InputFileError) -> Route {
    do {
      var reader = try JSONStreamReader(source)
      var stopped = false
      let document = try GeoJSONNode.readDocument(&reader, stopped: &stopped) {
        reader, index throws(JSONStreamError) in
        var stopped = false
        let feature = try GeoJSONNode.read(&reader, stopped: &stopped)
        if !builder.isFull { readFeature(feature, path: "features[\(index)]") }
        return stopped
      }
      // Stopped at an array of more positions than a route holds: what was read says so.
      if !stopped { try reader.finish() }
      readObject(document, path: "")
    } catch {
      switch error {
      case .syntax(let error):
        throw .invalid([
          InputDiagnostic(
            InputLocation(file: file, line: error.line, column: error.column),
            "malformed JSON: \(error.message)")
        ])
      case .file(let error): throw error
      }
    }
    return try builder.finish(emptyMessage: "expected LineString, MultiLineString or Point")
  }

  /// An origin at `path`, or at element `index` of the array at `path`.
  private mutating func origin(_ path: String, index: Int = -1, of node: GeoJSONNode) -> Int {
    if paths.texts.last != path { paths.texts.append(path) }
    paths.origins.append(
      Paths.Origin(
        text: Int32(clamping: paths.texts.count - 1), index: Int32(clamping: index),
        line: Int32(clamping: node.line), column: Int32(clamping: node.column)))
    return paths.origins.count - 1
  }

  /// Reports `message` about `node`, found at `path`.
  private mutating func report(_ message: String, at path: String, _ node: GeoJSONNode) {
    builder.report(message, at: origin(path, of: node))
  }

  private mutating func readObject(_ value: GeoJSONNode, path: String) {
    guard case .object = value.value else {
      report("\(value.kindName): expected a GeoJSON object", at: path, value)
      return
    }
    guard let type = value["type"]?.string else {
      report("expected a \"type\" string", at: join(path, "type"), value["type"] ?? value)
      return
    }
    switch type {
    case "FeatureCollection":
      guard let features = value["features"], let count = features.count else {
        report(
          "expected an array of features", at: join(path, "features"), value["features"] ?? value)
        return
      }
      for index in 0..<count where !builder.isFull {
        readFeature(features[index], path: join(path, "features") + "[\(index)]")
      }
    case "Feature":
      readFeature(value, path: path)
    default:
      readGeometry(value, properties: nil, path: path)
    }
  }

  private mutating func readFeature(_ feature: GeoJSONNode, path: String) {
    guard feature["type"]?.string == "Feature" else {
      report("expected an object whose \"type\" is \"Feature\"", at: path, feature)
      return
    }
    guard let geometry = feature["geometry"] else { return }
    if case .scalar(.null) = geometry.value { return }
    readGeometry(geometry, properties: feature["properties"], path: join(path, "geometry"))
  }

  private mutating func readGeometry(
    _ geometry: GeoJSONNode, properties: GeoJSONNode?, path: String
  ) {
    let coordinatesPath = join(path, "coordinates")
    let coordinates =
      geometry["coordinates"]
      ?? GeoJSONNode(value: .scalar(.null), line: geometry.line, column: geometry.column)
    let propertiesPath = String(path.dropLast("geometry".count)) + "properties"
    switch geometry["type"]?.value {
    case .scalar(.string("LineString")):
      let times = timeList(properties, path: propertiesPath)
      readLine(coordinates, times: times, path: coordinatesPath)
    case .scalar(.string("MultiLineString")):
      guard let lineCount = coordinates.count else {
        report(
          "\(coordinates.kindName): expected an array of lines", at: coordinatesPath, coordinates)
        return
      }
      let times = timeList(properties, path: propertiesPath)
      for index in 0..<lineCount {
        var lineTimes: (values: GeoJSONNode, path: String)?
        if let times, index < times.values.count ?? 0 {
          let timesPath = times.path + "[\(index)]"
          let values = times.values[index]
          if values.count != nil {
            lineTimes = (values, timesPath)
          } else {
            report("\(values.kindName): expected an array of times", at: timesPath, values)
          }
        }
        readLine(coordinates[index], times: lineTimes, path: coordinatesPath + "[\(index)]")
      }
    case .scalar(.string("Point")):
      var time: UTCInstant?
      if let node = properties?["time"], let text = node.string {
        guard let parsed = parseTime(text, node, path: join(propertiesPath, "time")) else {
          return
        }
        time = parsed
      }
      if time != nil, timedPointsTrack == nil {
        builder.beginTrack()
        timedPointsTrack = builder.currentTrack
      }
      readPosition(
        coordinates, time: time, path: coordinatesPath, track: timedPointsTrack,
        waypoint: time == nil)
    case .scalar(.string(let type)):
      report(
        "geometry type \(RouteText.quoted(type)): expected LineString, MultiLineString or Point",
        at: join(path, "type"), geometry["type"] ?? geometry)
    default:
      report("expected a geometry with a \"type\" string", at: path, geometry)
    }
  }

  /// `properties.coordTimes` or `properties.times`, when the properties have one.
  private mutating func timeList(_ properties: GeoJSONNode?, path: String) -> (
    values: GeoJSONNode, path: String
  )? {
    for key in ["coordTimes", "times"] {
      guard let value = properties?[key] else { continue }
      guard value.count != nil else {
        report("\(value.kindName): expected an array of times", at: join(path, key), value)
        return nil
      }
      return (value, join(path, key))
    }
    return nil
  }

  private mutating func readLine(
    _ line: GeoJSONNode, times: (values: GeoJSONNode, path: String)?, path: String
  ) {
    guard let count = line.count else {
      report("\(line.kindName): expected an array of positions", at: path, line)
      return
    }
    // A line read only up to `GeoJSONNode.packingLimit` positions is refused for them before
    // its times run out.
    if let times, let timeCount = times.values.count, timeCount != count,
      count < GeoJSONNode.packingLimit || timeCount < count
    {
      report(
        "\(timeCount) times for \(count) positions: expected one time a position",
        at: times.path, times.values)
      return
    }
    builder.beginTrack()
    let track = builder.currentTrack
    for index in 0..<count where !builder.isFull {
      var time: UTCInstant?
      if let times, index < times.values.count ?? 0 {
        let element = times.values[index]
        if let instant = element.instant {
          time = instant
        } else {
          guard let text = element.string else {
            report(
              "\(element.kindName): expected an ISO 8601 time", at: times.path + "[\(index)]",
              element)
            continue
          }
          guard let parsed = parseTime(text, element, path: times.path, index: index) else {
            continue
          }
          time = parsed
        }
      }
      readPosition(
        line[index], time: time, path: path, index: index, track: track, waypoint: false)
    }
  }

  /// The time `text` at `path` (element `index` of the array there, when given).
  private mutating func parseTime(
    _ text: String, _ node: GeoJSONNode, path: String, index: Int? = nil
  ) -> UTCInstant? {
    do { return try RouteText.time(text) } catch {
      report(
        "time \(RouteText.quoted(text)): \(error)", at: index.map { path + "[\($0)]" } ?? path,
        node)
      return nil
    }
  }

  /// Reads the position at `path`, or at element `index` of the array there (its path is
  /// written out only for a diagnostic).
  private mutating func readPosition(
    _ position: GeoJSONNode, time: UTCInstant?, path arrayPath: String, index: Int? = nil,
    track: Int?, waypoint: Bool
  ) {
    var path: String { index.map { arrayPath + "[\($0)]" } ?? arrayPath }
    guard let count = position.count, (2...3).contains(count) else {
      report(
        "\(position.kindName): expected a position [lon, lat] or [lon, lat, alt]", at: path,
        position)
      return
    }
    var numbers: [Double] = []
    if case .position(let packed) = position.value {
      numbers = [packed.longitude, packed.latitude] + (packed.givenAltitude.map { [$0] } ?? [])
    } else {
      for index in 0..<count {
        let value = position[index]
        guard case .scalar(.number(_, let number)) = value.value else {
          report("\(value.kindName): expected a number", at: path + "[\(index)]", value)
          return
        }
        numbers.append(number)
      }
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
      report(error.description, at: path + "[\(index)]", position)
      return
    }
    builder.addPoint(
      latitude: numbers[1], longitude: numbers[0], altitude: numbers.count == 3 ? numbers[2] : nil,
      time: time, at: origin(arrayPath, index: index ?? -1, of: position),
      track: waypoint ? nil : track)
  }

  private func join(_ path: String, _ key: String) -> String {
    path.isEmpty ? key : path + "." + key
  }
}
