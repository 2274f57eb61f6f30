import InputFiles
import Simulation

/// Route files: GPX, KML, CSV and GeoJSON, told apart by their content.
///
/// XML is read with libxml2's streaming reader, CSV line by line and GeoJSON with
/// `JSONStreamReader`, so memory grows with the points and not with the file. Every problem is reported (up to
/// `InputFileError.diagnosticLimit`) in file order with its line or JSON path. The rules for
/// choosing points (tracks, routes, waypoints, times) are `RouteBuilder`'s, the same for every
/// format.
public enum RouteFile {
  /// The largest route file read, in bytes (256 MiB), whatever its format.
  public static let maximumFileSize = 256 << 20
  /// The most points a route file may hold (two million, about 600 MB in a running receiver,
  /// whose driving keeps about 300 bytes a point): one with more is refused when its next point
  /// is read, before memory runs out.
  public static let maximumPoints = 2_000_000
  /// The point cap the readers apply: `maximumPoints`, lowered by a test to try it on a small
  /// file.
  @TaskLocal package static var pointLimit = maximumPoints
  /// The size cap the readers apply, bytes: `maximumFileSize`, lowered by a test to try it on a
  /// small file.
  @TaskLocal package static var sizeLimit = maximumFileSize

  /// Reads the route in the file at `path`, whatever its format.
  ///
  /// - Throws: `.unreadable` when the file is missing, not readable or not a regular file
  ///   (exit 66);
  ///   `.invalid` with every problem found when its content is wrong (exit 65).
  public static func load(path: String) throws(InputFileError) -> Route {
    let file = try InputFile(path: path, expecting: "a route file")
    return try load(file)
  }

  /// Reads the route in `file`, opened already (by a test that makes it grow, say).
  ///
  /// - Throws: as `load(path:)`.
  package static func load(_ file: InputFile) throws(InputFileError) -> Route {
    try read(.file(file), size: file.size, name: file.path)
  }

  /// Reads the route in a file the caller opened for reading (with someone else's rights, say)
  /// as `path`; the descriptor stays the caller's to close.
  ///
  /// - Throws: as `load(path:)`.
  public static func load(descriptor: Int32, path: String) throws(InputFileError) -> Route {
    let file = try InputFile(duplicating: descriptor, path: path, expecting: "a route file")
    return try read(.file(file), size: file.size, name: path)
  }

  /// Reads a route from the bytes of a file called `name` (which is only used in messages and
  /// to break a tie between GPX and KML).
  ///
  /// - Throws: `.invalid` with every problem found.
  public static func parse(bytes: some Collection<UInt8>, name: String) throws(InputFileError)
    -> Route
  {
    let array = Array(bytes)
    return try read(.memory(array), size: array.count, name: name)
  }

  private static func read(_ source: ByteSource, size: Int, name: String) throws(InputFileError)
    -> Route
  {
    let limit = sizeLimit
    let refusal = InputFileError.tooLarge(
      name, kind: "route file", limit: limit,
      advice: "thin the track (gpsbabel -x simplify) or split it")
    guard size <= limit else { throw refusal(size) }
    // Checked again by every read of a file, which may grow while it is read.
    if case .file(let file) = source { file.limit = (limit, refusal) }
    let prefix = try source.bytes(at: 0, count: RouteFormat.detectionPrefixLength)
    guard let format = RouteFormat.detect(prefix: prefix, fileName: name) else {
      let blank =
        size <= prefix.count
        && prefix.allSatisfy { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
      let message = blank ? "no points: the file is empty" : RouteFormat.unknownMessage
      throw .invalid([InputDiagnostic(InputLocation(file: name, line: blank ? nil : 1), message)])
    }
    switch format {
    case .gpx, .kml:
      guard let xml = XMLStreamReader(source, file: name) else {
        throw .unreadable(path: name, reason: "libxml2 could not start a reader")
      }
      if format == .gpx {
        var reader = GPXRouteReader(file: name)
        return try reader.read(xml)
      }
      var reader = KMLRouteReader(file: name)
      return try reader.read(xml)
    case .csv:
      return try CSVRouteReader(file: name, source: source).read()
    case .geoJSON:
      return try GeoJSONRouteReader(file: name).read(source)
    }
  }
}
