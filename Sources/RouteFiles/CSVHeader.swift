/// The header line of a CSV route file: the separator and which columns hold what.
///
/// Column names are matched without case and surrounding quotes or spaces: `lat`/`latitude`,
/// `lon`/`lng`/`long`/`longitude`, `alt`/`altitude`/`ele`/`elevation`, and
/// `time`/`timestamp`/`date_time`/`datetime`/`utc` for an ISO 8601 time. A `date` column beside
/// the `time` column (`2017/07/29` and `14:46:35`, as GPSBabel's `unicsv` writes) is read as a
/// UTC date and time of day. Other columns are ignored.
struct CSVHeader {
  static let latitudeNames: Set = ["lat", "latitude"]
  static let longitudeNames: Set = ["lon", "lng", "long", "longitude"]
  static let altitudeNames: Set = ["alt", "altitude", "ele", "elevation"]
  static let timeNames: Set = ["time", "timestamp", "date_time", "datetime", "utc"]
  static let dateNames: Set = ["date"]

  let separator: UInt8
  let latitude: Int
  let longitude: Int
  let altitude: Int?
  let time: Int?
  let date: Int?

  /// The fewest fields a row needs to hold every known column.
  var fieldCount: Int {
    [altitude, time, date].compactMap(\.self).reduce(max(latitude, longitude), max) + 1
  }

  /// Reads a header line; nil when no separator gives both a latitude and a longitude column.
  init?(line: [UInt8]) {
    var trimmed = line[...]
    if trimmed.starts(with: [0xEF, 0xBB, 0xBF]) { trimmed = trimmed.dropFirst(3) }
    if trimmed.last == UInt8(ascii: "\r") { trimmed = trimmed.dropLast() }
    for separator in [",", ";", "\t"].map({ UInt8(ascii: $0) }) {
      guard let fields = try? CSVRow.fields(of: trimmed, separator: separator) else { continue }
      let names = fields.map { $0.trimmingWhitespace.lowercased() }
      func column(_ aliases: Set<String>) -> Int? { names.firstIndex(where: aliases.contains) }
      guard let latitude = column(Self.latitudeNames), let longitude = column(Self.longitudeNames)
      else { continue }
      self.separator = separator
      self.latitude = latitude
      self.longitude = longitude
      altitude = column(Self.altitudeNames)
      time = column(Self.timeNames)
      date = time == nil ? nil : column(Self.dateNames)
      return
    }
    return nil
  }
}

/// Splitting one CSV line into fields.
enum CSVRow {
  /// A quote opened and never closed on the line.
  struct UnterminatedQuote: Error {}

  /// The fields of a line: separated by `separator`; a field in double quotes may hold the
  /// separator, and `""` inside it stands for one quote.
  static func fields(of line: ArraySlice<UInt8>, separator: UInt8) throws(UnterminatedQuote)
    -> [String]
  {
    let quote = UInt8(ascii: "\"")
    var fields: [String] = []
    var field: [UInt8] = []
    var index = line.startIndex
    var inQuotes = false
    while index < line.endIndex {
      let byte = line[index]
      if inQuotes {
        if byte == quote {
          if index + 1 < line.endIndex, line[index + 1] == quote {
            field.append(quote)
            index += 1
          } else {
            inQuotes = false
          }
        } else {
          field.append(byte)
        }
      } else if byte == quote {
        inQuotes = true
      } else if byte == separator {
        fields.append(String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: true)
      } else {
        field.append(byte)
      }
      index += 1
    }
    guard !inQuotes else { throw UnterminatedQuote() }
    fields.append(String(decoding: field, as: UTF8.self))
    return fields
  }
}
