import Geodesy
import InputFiles
import Simulation

/// Scenario files: a JSON document that scripts a test run (see `Scenario`).
///
///     {"start": {"time": "2024-07-01T12:00:00Z", "position": [46.05, 14.5, 300]},
///      "seed": 1,
///      "timeline": [{"at": 0, "do": "goto", "position": [46.06, 14.5], "speed": 15},
///                   {"at": 60, "do": "fix", "mode": "none", "for": 20}]}
///
/// Every problem is reported, each with its line and JSON path and what was expected:
/// `tunnel.json:14: timeline[3].mode: expected one of none, 2d, 3d, dgps, rtk-float, rtk-fixed,
/// got "4d"`.
public enum ScenarioFile {
  /// The largest scenario file read, bytes.
  public static let maximumBytes = 16 * 1024 * 1024
  /// The longest time after the start an event may happen, seconds (about 31 years).
  public static let maximumOffsetSeconds = 1e9

  static let topLevelFields = ["comment", "start", "seed", "limits", "timeline"]

  /// Reads the scenario in the file at `path`, with the route files it names, relative paths
  /// being resolved against the scenario's folder.
  ///
  /// - Throws: `.unreadable` when the file is missing or cannot be read (exit 66), `.invalid`
  ///   with every problem found (exit 65).
  public static func load(path: String) throws(InputFileError) -> Scenario {
    try parse(bytes: readBytes(path: path), name: path, baseDirectory: directory(of: path))
  }

  /// Reads a scenario from its bytes.
  ///
  /// - Parameters:
  ///   - name: The file's name as messages show it.
  ///   - baseDirectory: The folder relative route paths are resolved against.
  /// - Throws: `.invalid` with every problem found.
  public static func parse(
    bytes: [UInt8], name: String, baseDirectory: String
  ) throws(InputFileError) -> Scenario {
    guard bytes.count <= maximumBytes else {
      throw InputFileError.tooLarge(name, kind: "scenario file", limit: maximumBytes)(bytes.count)
    }
    let root = try JSONParser.parse(bytes, file: name)
    let diagnostics = ScenarioDiagnostics(file: name)
    let scenario = ScenarioReader(diagnostics: diagnostics, baseDirectory: baseDirectory)
      .scenario(root)
    guard let scenario, diagnostics.list.isEmpty else { throw .invalid(diagnostics.list) }
    return scenario
  }
}

/// Walks a scenario document, reporting every problem with its path.
struct ScenarioReader {
  let diagnostics: ScenarioDiagnostics
  let baseDirectory: String

  func scenario(_ root: JSONNode) -> Scenario? {
    guard var fields = JSONObjectFields(root, path: "", diagnostics: diagnostics) else {
      return nil
    }
    _ = fields.string("comment")
    let origin = start(&fields)
    let seedValue = fields.value("seed").flatMap { seed($0) }
    let drivingLimits = fields.value("limits").flatMap { limits($0) }
    let timelineNode = fields.value("timeline", required: "an array of events")
    fields.finish(known: ScenarioFile.topLevelFields)
    let events = timelineNode.flatMap {
      timeline($0, start: origin?.time, altitude: origin?.position.altitudeMeters ?? 0)
    }
    guard let origin, let events else { return nil }
    return Scenario(
      startTime: origin.time, startPosition: origin.position, seed: seedValue ?? 0,
      limits: drivingLimits ?? Scenario.defaultLimits, timeline: events)
  }

  func start(_ top: inout JSONObjectFields) -> (time: UTCInstant, position: GeodeticPosition)? {
    guard let node = top.value("start", required: "an object with time and position"),
      var fields = JSONObjectFields(node, path: "start", diagnostics: diagnostics)
    else { return nil }
    let timeExpectation = "a UTC time YYYY-MM-DDTHH:MM:SS[.fraction]Z"
    var time: UTCInstant?
    if let text = fields.string("time", required: timeExpectation) {
      do {
        time = try UTCInstant(iso8601: text)
      } catch {
        diagnostics.report(fields.value("time"), "start.time", "\(error), got \"\(text)\"")
      }
      if let problem = time?.playableRangeProblem {
        diagnostics.report(fields.value("time"), "start.time", problem)
        time = nil
      }
    }
    let position = fields.position("position", required: true)
    fields.finish(known: ["time", "position"])
    guard let time, let position else { return nil }
    return (time, position)
  }

  /// A seed: a whole number that fits in 64 bits without sign.
  func seed(_ node: JSONNode) -> UInt64? {
    guard case .number(let text, _) = node.value, let seed = UInt64(text) else {
      diagnostics.report(
        node, "seed", "expected a whole number in 0...\(UInt64.max), got \(node.shortDescription)")
      return nil
    }
    return seed
  }

  func limits(_ node: JSONNode) -> DrivingLimits? {
    guard var fields = JSONObjectFields(node, path: "limits", diagnostics: diagnostics) else {
      return nil
    }
    let defaults = Scenario.defaultLimits
    let speed = fields.number("speed", .positive(upTo: 5000))
    let acceleration = fields.number("acceleration", .positive(upTo: 100))
    let turnRate = fields.number("turn-rate", .positive(upTo: 3600))
    fields.finish(known: ["speed", "acceleration", "turn-rate"])
    return DrivingLimits(
      speedMetersPerSecond: speed ?? defaults.speedMetersPerSecond,
      accelerationMetersPerSecondSquared: acceleration
        ?? defaults.accelerationMetersPerSecondSquared,
      turnRateDegreesPerSecond: turnRate ?? defaults.turnRateDegreesPerSecond)
  }

  /// The events, which must be in time order (equal times are allowed and keep their order).
  func timeline(
    _ node: JSONNode, start: UTCInstant?, altitude startAltitude: Double
  ) -> [Scenario.Event]? {
    var altitude = startAltitude
    let lastYear = UTCInstant.iso8601Years.upperBound
    guard case .array(let elements) = node.value else {
      diagnostics.report(
        node, "timeline", "expected an array of events, got \(node.shortDescription)")
      return nil
    }
    var events: [Scenario.Event] = []
    var previousOffset: Double?
    let before = diagnostics.list.count
    for (index, element) in elements.enumerated() {
      let path = "timeline[\(index)]"
      guard var fields = JSONObjectFields(element, path: path, diagnostics: diagnostics) else {
        continue
      }
      let offset = fields.number(
        "at", .within(0...ScenarioFile.maximumOffsetSeconds), required: true)
      if let offset, let previous = previousOffset, offset < previous {
        diagnostics.report(
          fields.value("at"), "\(path).at",
          "expected events in time order, at \(NumberRule.text(previous)) or later, got "
            + NumberRule.text(offset))
      }
      previousOffset = offset.map { max($0, previousOffset ?? $0) } ?? previousOffset
      let reader = ScenarioActionReader(
        diagnostics: diagnostics, baseDirectory: baseDirectory, currentAltitude: altitude)
      let parsed = reader.action(&fields)
      switch parsed?.action {
      case .goto(let position, _): altitude = position.altitudeMeters
      case .route(let route, _): altitude = route.points.last?.position.altitudeMeters ?? altitude
      default: break
      }
      guard let offset, let start, let parsed else { continue }
      let (sum, overflow) = start.nanoseconds.addingReportingOverflow(
        Int64((offset * 1e9).rounded()))
      guard !overflow, UTCInstant(nanosecondsSinceEpoch: sum).civil.year <= lastYear else {
        diagnostics.report(
          fields.value("at"), "\(path).at",
          "expected a time before the end of \(lastYear), got \(NumberRule.text(offset)) s after "
            + "the start")
        continue
      }
      let at = UTCInstant(nanosecondsSinceEpoch: sum)
      events.append(Scenario.Event(at: at, parsed.action, durationNanoseconds: parsed.duration))
    }
    return diagnostics.list.count == before ? events : nil
  }
}
