import InputFiles
import Simulation

/// Route files: GPX, KML, CSV and GeoJSON, told apart by their content.
///
/// XML is read with libxml2's streaming reader and CSV line by line, so memory grows with the
/// points and not with the file; GeoJSON is decoded whole, up to
/// `GeoJSONRouteReader.maximumFileSize`. Every problem is reported (up to
/// `InputFileError.diagnosticLimit`) in file order with its line or JSON path. The rules for
/// choosing points (tracks, routes, waypoints, times) are `RouteBuilder`'s, the same for every
/// format.
public enum RouteFile {
  /// The largest GeoJSON file read, in bytes (32 MiB): GeoJSON is decoded in memory.
  public static var maximumGeoJSONSize: Int { GeoJSONRouteReader.maximumFileSize }

  /// Reads the route in the file at `path`, whatever its format.
  ///
  /// - Throws: `.unreadable` when the file is missing, not readable or not a regular file
  ///   (exit 66);
  ///   `.invalid` with every problem found when its content is wrong (exit 65).
  public static func load(path: String) throws(InputFileError) -> Route {
    let file = try InputFile(path: path, expecting: "a route file")
    return try read(.file(file), size: file.size, name: path)
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
      let limit = GeoJSONRouteReader.maximumFileSize
      let advice = "convert a larger route to GPX or CSV, which are streamed"
      let bytes: [UInt8]
      switch source {
      case .memory(let all):
        guard all.count <= limit else {
          throw InputFileError.tooLarge(name, kind: "GeoJSON file", limit: limit, advice: advice)(
            all.count)
        }
        bytes = all
      case .file(let file):
        bytes = try file.readAll(limit: limit, kind: "GeoJSON file", advice: advice)
      }
      return try GeoJSONRouteReader(file: name).read(bytes)
    }
  }
}
