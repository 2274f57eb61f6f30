/// The kinds of route file mockgps reads.
public enum RouteFormat: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  /// GPX 1.0 or 1.1: tracks, routes, or else waypoints.
  case gpx
  /// KML 2.x: `LineString`, `gx:Track` and `Point` placemarks.
  case kml
  /// Text with a header line naming the latitude and longitude columns.
  case csv
  /// GeoJSON: `LineString`, `MultiLineString`, `Point`, `Feature`, `FeatureCollection`.
  case geoJSON

  public var description: String {
    switch self {
    case .gpx: return "GPX"
    case .kml: return "KML"
    case .csv: return "CSV"
    case .geoJSON: return "GeoJSON"
    }
  }

  /// How many bytes from the start of a file `detect` looks at.
  public static let detectionPrefixLength = 4096

  /// What the content says the format is, or nil when it is none of them.
  ///
  /// After a byte order mark and white space: XML whose root element (past the declaration,
  /// comments and a document type) is `gpx` or `kml`, in any namespace; `{` for GeoJSON; a first
  /// line naming a latitude and a longitude column for CSV. The file name's extension only
  /// decides when the content cannot: XML whose root is past the prefix.
  public static func detect(prefix: [UInt8], fileName: String) -> RouteFormat? {
    var index = 0
    if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    while index < prefix.count, isSpace(prefix[index]) { index += 1 }
    guard index < prefix.count else { return nil }
    switch prefix[index] {
    case UInt8(ascii: "<"): return xmlRoot(prefix[index...], fileName: fileName)
    case UInt8(ascii: "{"): return .geoJSON
    default:
      let line = prefix[index...].prefix { $0 != UInt8(ascii: "\n") }
      return CSVHeader(line: Array(line)) != nil ? .csv : nil
    }
  }

  /// The format named by the root element of XML text, past `<?…?>`, `<!--…-->` and `<!…>`.
  private static func xmlRoot(_ text: ArraySlice<UInt8>, fileName: String) -> RouteFormat? {
    var rest = text
    while let open = rest.firstIndex(of: UInt8(ascii: "<")) {
      rest = rest[(open + 1)...]
      guard let first = rest.first else { return byExtension(fileName) }
      let terminator: [UInt8]
      switch first {
      case UInt8(ascii: "?"): terminator = Array("?>".utf8)
      case UInt8(ascii: "!") where rest.starts(with: "!--".utf8): terminator = Array("-->".utf8)
      case UInt8(ascii: "!"): terminator = Array(">".utf8)
      default:
        let name = rest.prefix {
          !isSpace($0) && $0 != UInt8(ascii: ">") && $0 != UInt8(ascii: "/")
        }
        guard name.count < rest.count else { return byExtension(fileName) }
        let local = name.split(separator: UInt8(ascii: ":")).last.map(Array.init) ?? []
        return local == Array("gpx".utf8) ? .gpx : local == Array("kml".utf8) ? .kml : nil
      }
      guard let end = firstRange(of: terminator, in: rest) else { return byExtension(fileName) }
      rest = rest[end...]
    }
    return byExtension(fileName)
  }

  /// XML whose root is past the prefix: the extension decides between the XML formats.
  private static func byExtension(_ fileName: String) -> RouteFormat? {
    let lowered = fileName.lowercased()
    if lowered.hasSuffix(".gpx") { return .gpx }
    if lowered.hasSuffix(".kml") { return .kml }
    return nil
  }

  /// The index just past the first occurrence of `needle` in `haystack`.
  private static func firstRange(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    var index = haystack.startIndex
    while index + needle.count <= haystack.endIndex {
      if haystack[index..<(index + needle.count)].elementsEqual(needle) {
        return index + needle.count
      }
      index += 1
    }
    return nil
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// The message for content that is none of the formats.
  static let unknownMessage =
    "unknown content: expected GPX or KML (XML with root <gpx> or <kml>), GeoJSON (starting"
    + " with '{') or CSV (a header line naming latitude and longitude columns)"
}
