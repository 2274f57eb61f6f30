import InputFiles
import Simulation

/// A value of a GeoJSON document as the route reader keeps it, read from `JSONStreamReader`:
/// positions (arrays of two or three numbers) and the arrays of them kept packed, at 32 bytes a
/// position, and arrays of ISO 8601 times as instants, so that a track costs about what its
/// points do, not a node a number. Members no reader looks at are read and not kept.
struct GeoJSONNode {
  /// A position `[lon, lat]` or `[lon, lat, alt]` where it starts.
  struct Position {
    var longitude: Double
    var latitude: Double
    /// NaN when the position has two numbers (a number read from JSON is never NaN).
    var altitude: Double
    var line: Int32
    var column: Int32

    /// The altitude, nil when the position has none.
    var givenAltitude: Double? { altitude.isNaN ? nil : altitude }
  }

  /// A time of a times array and where it starts.
  struct Time {
    var instant: UTCInstant
    var line: Int32
    var column: Int32
  }

  /// What a node holds.
  enum Value {
    /// A string, number, boolean or null.
    case scalar(JSONNode.Value)
    /// The members kept, in file order (a key given twice kept twice).
    case object([(key: String, value: GeoJSONNode)])
    /// Elements that are not all positions or all times.
    case array(Elements)
    /// A position.
    case position(Position)
    /// An array of positions, in chunks (a million is never copied whole to grow).
    case positions([[Position]])
    /// An array of ISO 8601 times that all parse.
    case times([[Time]])
    /// A string that is an ISO 8601 time, in an array.
    case time(Time)
  }

  /// The elements of an array that are not all positions or all times: those kept, in order,
  /// and how many there were (the rest were read and not kept, see `elements`).
  struct Elements {
    /// The first elements.
    var kept: [GeoJSONNode]
    /// How many elements the array has.
    var count: Int
  }

  /// The members an object keeps: those the route reader looks at.
  static let keptKeys: Set<String> = [
    "type", "features", "geometry", "properties", "coordinates", "time", "coordTimes", "times",
  ]

  /// Positions or times a chunk holds.
  private static let chunkLength = 1 << 14

  var value: Value
  /// The line the value starts on, from 1.
  var line: Int
  /// The column (byte) the value starts at, from 1.
  var column: Int

  /// The member `key` of an object (the first, for a key given twice).
  subscript(key: String) -> GeoJSONNode? {
    guard case .object(let members) = value else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// A short name of the value's kind, for messages, as `JSONNode.kindName`.
  var kindName: String {
    switch value {
    case .scalar(let scalar): return JSONNode(value: scalar, line: line).kindName
    case .time: return "a string"
    case .object: return "an object"
    case .array, .position, .positions, .times: return "an array"
    }
  }

  /// The string a node holds, nil for anything else.
  var string: String? {
    if case .scalar(.string(let text)) = value { return text }
    return nil
  }

  /// The number of elements of an array; nil for anything else.
  var count: Int? {
    switch value {
    case .array(let elements): return elements.count
    case .position(let position): return position.givenAltitude == nil ? 2 : 3
    case .positions(let chunks): return chunks.reduce(0) { $0 + $1.count }
    case .times(let chunks): return chunks.reduce(0) { $0 + $1.count }
    case .scalar, .object, .time: return nil
    }
  }

  /// Element `index` of an array (`count` says how many there are).
  subscript(index: Int) -> GeoJSONNode {
    let (chunk, offset) = index.quotientAndRemainder(dividingBy: Self.chunkLength)
    switch value {
    case .array(let elements):
      guard index < elements.kept.count else {
        // Past the elements kept: the reader stopped before (see `elements`).
        return GeoJSONNode(value: .scalar(.null), line: line, column: column)
      }
      return elements.kept[index]
    case .position(let position):
      let number = [position.longitude, position.latitude, position.altitude][index]
      return GeoJSONNode(
        value: .scalar(.number(text: "\(number)", value: number)), line: line, column: column)
    case .positions(let chunks):
      let position = chunks[chunk][offset]
      return GeoJSONNode(
        value: .position(position), line: Int(position.line), column: Int(position.column))
    case .times(let chunks):
      let time = chunks[chunk][offset]
      return GeoJSONNode(value: .time(time), line: time.line)
    case .scalar, .object, .time: preconditionFailure("element of a value that is not an array")
    }
  }

  /// The instant of a time that was read as one (in a times array).
  var instant: UTCInstant? {
    if case .time(let time) = value { return time.instant }
    return nil
  }

  /// A node of `value` starting at `line` and `column`.
  init(value: Value, line: Int, column: Int) {
    self.value = value
    self.line = line
    self.column = column
  }

  /// A node of a position or time, where it starts.
  private init(value: Value, line: Int32) {
    self.value = value
    self.line = Int(line)
    switch value {
    case .position(let position): column = Int(position.column)
    case .time(let time): column = Int(time.column)
    default: column = 0
    }
  }

  /// Reads the next value of `reader` whole, its members and elements kept as described above.
  ///
  /// `stopped` is set when an array held more positions than a route may (`packingLimit`): the
  /// reading then stops there, and what was read up to that point is returned (the rest of the
  /// document is left unread, for the route reader to refuse the points at once).
  static func read(_ reader: inout JSONStreamReader, stopped: inout Bool)
    throws(JSONStreamError) -> GeoJSONNode
  {
    try read(&reader, streaming: false, stopped: &stopped) { _, _ throws(JSONStreamError) in false }
  }

  /// Reads a document as `read(_:stopped:)` does, except the member `features` of a top-level
  /// object whose `type` came first and is `FeatureCollection`: when that is an array, `each` is
  /// given its elements one by one (with their index) to read, and it is kept empty. `each`
  /// returns true to stop the reading there (as `stopped`).
  static func readDocument(
    _ reader: inout JSONStreamReader, stopped: inout Bool,
    features each: (inout JSONStreamReader, Int) throws(JSONStreamError) -> Bool
  ) throws(JSONStreamError) -> GeoJSONNode {
    try read(&reader, streaming: true, stopped: &stopped, features: each)
  }

  /// The most positions an array is read with: past that many, the route cannot be read (each
  /// position is a point or a diagnostic, and either cap is then passed), so the reading stops.
  static var packingLimit: Int { RouteFile.pointLimit + InputFileError.diagnosticLimit + 1 }

  private static func read(
    _ reader: inout JSONStreamReader, streaming: Bool, stopped: inout Bool,
    features each: (inout JSONStreamReader, Int) throws(JSONStreamError) -> Bool
  ) throws(JSONStreamError) -> GeoJSONNode {
    let start = try reader.beginValue()
    let line = reader.valueLine
    let column = reader.valueColumn
    switch start {
    case .scalar(let node):
      return GeoJSONNode(value: .scalar(node.value), line: line, column: column)
    case .object:
      var members: [(key: String, value: GeoJSONNode)] = []
      while !stopped, let key = try reader.nextMember() {
        if streaming, key == "features", !members.contains(where: { $0.key == key }),
          members.first(where: { $0.key == "type" })?.value.string == "FeatureCollection"
        {
          members.append((key, try readStreamed(&reader, stopped: &stopped, each)))
        } else if keptKeys.contains(key) {
          members.append((key, try read(&reader, stopped: &stopped)))
        } else {
          try reader.skipValue()
        }
      }
      return GeoJSONNode(value: .object(members), line: line, column: column)
    case .array:
      let value = try elements(&reader, line: line, column: column, stopped: &stopped)
      return GeoJSONNode(value: value, line: line, column: column)
    }
  }

  /// The `features` array handed element by element to `each` (or, when it is not an array,
  /// the value).
  private static func readStreamed(
    _ reader: inout JSONStreamReader, stopped: inout Bool,
    _ each: (inout JSONStreamReader, Int) throws(JSONStreamError) -> Bool
  ) throws(JSONStreamError) -> GeoJSONNode {
    var probe = reader
    guard case .array = try probe.beginValue() else { return try read(&reader, stopped: &stopped) }
    let line = probe.valueLine
    let column = probe.valueColumn
    reader = probe
    var index = 0
    while !stopped, try reader.nextElement() {
      stopped = try each(&reader, index)
      index += 1
    }
    return GeoJSONNode(value: .array(Elements(kept: [], count: 0)), line: line, column: column)
  }

  /// The elements of an array, after its `[`: packed when they are all positions or all times,
  /// a position when they are two or three numbers.
  ///
  /// Otherwise the elements are kept only up to the `InputFileError.diagnosticLimit`th one that
  /// is neither a position, a time, an object nor an empty array: each of those is a diagnostic
  /// wherever the route reader meets it, so it stops before it gets further. The rest are read,
  /// not kept, and counted.
  private static func elements(
    _ reader: inout JSONStreamReader, line: Int, column: Int, stopped: inout Bool
  ) throws(JSONStreamError) -> Value {
    var packing: Packing = .none
    var positions: [[Position]] = []
    var positionCount = 0
    var times: [[Time]] = []
    var others: [GeoJSONNode] = []
    var wrong = 0
    var count = 0
    while !stopped, try reader.nextElement() {
      count += 1
      if wrong >= InputFileError.diagnosticLimit {
        try reader.skipValue()
        continue
      }
      let element = try read(&reader, stopped: &stopped)
      if packing == .none || packing == .positions, case .position(let position) = element.value {
        packing = .positions
        append(position, to: &positions)
        positionCount += 1
        if positionCount >= packingLimit { stopped = true }
        continue
      }
      if packing == .none || packing == .times, let text = element.string,
        let instant = try? RouteText.time(text)
      {
        packing = .times
        let time = Time(
          instant: instant, line: Int32(clamping: element.line),
          column: Int32(clamping: element.column))
        append(time, to: &times)
        continue
      }
      if packing == .positions {
        others = positions.joined().map { .init(value: .position($0), line: $0.line) }
        positions = []
      } else if packing == .times {
        others = times.joined().map { .init(value: .time($0), line: $0.line) }
        times = []
      }
      packing = .mixed
      if element.isWrongElement { wrong += 1 }
      others.append(element)
    }
    switch packing {
    case .none: return .array(Elements(kept: [], count: count))
    case .positions: return .positions(positions)
    case .times: return .times(times)
    case .mixed:
      let array = Value.array(Elements(kept: others, count: count))
      guard count == others.count, (2...3).contains(others.count) else { return array }
      var numbers: (Double, Double, Double) = (0, 0, .nan)
      for (index, node) in others.enumerated() {
        guard case .scalar(.number(_, let number)) = node.value, !number.isNaN else {
          return array
        }
        switch index {
        case 0: numbers.0 = number
        case 1: numbers.1 = number
        default: numbers.2 = number
        }
      }
      return .position(
        Position(
          longitude: numbers.0, latitude: numbers.1, altitude: numbers.2,
          line: Int32(clamping: line), column: Int32(clamping: column)))
    }
  }

  /// True for an element of a mixed array that the route reader reports wherever it meets it:
  /// not a position, a time, an object (a feature) or an empty array (an empty line).
  private var isWrongElement: Bool {
    switch value {
    case .position, .positions, .times, .time, .object: return false
    case .array(let elements): return elements.count > 0
    case .scalar(.string(let text)): return (try? RouteText.time(text)) == nil
    case .scalar: return true
    }
  }

  /// How the elements of an array read so far are kept.
  private enum Packing {
    case none, positions, times, mixed
  }

  /// Appends `element` to the last chunk of `chunks`, or a new one when it is full.
  private static func append<Element>(_ element: Element, to chunks: inout [[Element]]) {
    if chunks.last.map({ $0.count == chunkLength }) ?? true {
      // The first chunk grows as it fills (a short line does not take a whole chunk).
      chunks.append([])
      if chunks.count > 1 { chunks[chunks.count - 1].reserveCapacity(chunkLength) }
    }
    chunks[chunks.count - 1].append(element)
  }
}
