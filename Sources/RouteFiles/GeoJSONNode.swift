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
    case array([GeoJSONNode])
    /// A position.
    case position(Position)
    /// An array of positions, in chunks (a million is never copied whole to grow).
    case positions([[Position]])
    /// An array of ISO 8601 times that all parse.
    case times([[Time]])
    /// A string that is an ISO 8601 time, in an array.
    case time(Time)
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
    case .array(let elements): return elements[index]
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
  static func read(_ reader: inout JSONStreamReader) throws(JSONStreamError) -> GeoJSONNode {
    try read(&reader, streaming: false) { _, _ throws(JSONStreamError) in }
  }

  /// Reads a document as `read(_:)` does, except the member `features` of a top-level object
  /// whose `type` came first and is `FeatureCollection`: when that is an array, `each` is given
  /// its elements one by one (with their index) to read, and it is kept empty.
  static func readDocument(
    _ reader: inout JSONStreamReader,
    features each: (inout JSONStreamReader, Int) throws(JSONStreamError) -> Void
  ) throws(JSONStreamError) -> GeoJSONNode {
    try read(&reader, streaming: true, features: each)
  }

  private static func read(
    _ reader: inout JSONStreamReader, streaming: Bool,
    features each: (inout JSONStreamReader, Int) throws(JSONStreamError) -> Void
  ) throws(JSONStreamError) -> GeoJSONNode {
    let start = try reader.beginValue()
    let line = reader.valueLine
    let column = reader.valueColumn
    switch start {
    case .scalar(let node):
      return GeoJSONNode(value: .scalar(node.value), line: line, column: column)
    case .object:
      var members: [(key: String, value: GeoJSONNode)] = []
      while let key = try reader.nextMember() {
        if streaming, key == "features", !members.contains(where: { $0.key == key }),
          members.first(where: { $0.key == "type" })?.value.string == "FeatureCollection"
        {
          members.append((key, try readStreamed(&reader, each)))
        } else if keptKeys.contains(key) {
          members.append((key, try read(&reader)))
        } else {
          try reader.skipValue()
        }
      }
      return GeoJSONNode(value: .object(members), line: line, column: column)
    case .array:
      let value = try elements(&reader, line: line, column: column)
      return GeoJSONNode(value: value, line: line, column: column)
    }
  }

  /// The `features` array handed element by element to `each` (or, when it is not an array,
  /// the value).
  private static func readStreamed(
    _ reader: inout JSONStreamReader,
    _ each: (inout JSONStreamReader, Int) throws(JSONStreamError) -> Void
  ) throws(JSONStreamError) -> GeoJSONNode {
    var probe = reader
    guard case .array = try probe.beginValue() else { return try read(&reader) }
    let line = probe.valueLine
    let column = probe.valueColumn
    reader = probe
    var index = 0
    while try reader.nextElement() {
      try each(&reader, index)
      index += 1
    }
    return GeoJSONNode(value: .array([]), line: line, column: column)
  }

  /// The elements of an array, after its `[`: packed when they are all positions or all times,
  /// a position when they are two or three numbers.
  private static func elements(_ reader: inout JSONStreamReader, line: Int, column: Int)
    throws(JSONStreamError) -> Value
  {
    var packing: Packing = .none
    var positions: [[Position]] = []
    var times: [[Time]] = []
    var others: [GeoJSONNode] = []
    while try reader.nextElement() {
      let element = try read(&reader)
      if packing == .none || packing == .positions, case .position(let position) = element.value {
        packing = .positions
        append(position, to: &positions)
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
      others.append(element)
    }
    switch packing {
    case .none: return .array([])
    case .positions: return .positions(positions)
    case .times: return .times(times)
    case .mixed:
      guard (2...3).contains(others.count) else { return .array(others) }
      var numbers: (Double, Double, Double) = (0, 0, .nan)
      for (index, node) in others.enumerated() {
        guard case .scalar(.number(_, let number)) = node.value, !number.isNaN else {
          return .array(others)
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

  /// How the elements of an array read so far are kept.
  private enum Packing {
    case none, positions, times, mixed
  }

  /// Appends `element` to the last chunk of `chunks`, or a new one when it is full.
  private static func append<Element>(_ element: Element, to chunks: inout [[Element]]) {
    if chunks.last.map({ $0.count == chunkLength }) ?? true {
      chunks.append([])
      chunks[chunks.count - 1].reserveCapacity(chunkLength)
    }
    chunks[chunks.count - 1].append(element)
  }
}
