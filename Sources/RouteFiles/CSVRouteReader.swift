import InputFiles
import Simulation

/// Reads a CSV route: a header line, then one point a row; blank lines are skipped.
///
/// The file is read line by line in chunks, and a line longer than
/// `LineReader.maximumLineLength` stops the reading, so a huge file without line ends is refused
/// after one chunk. Every row makes one track.
struct CSVRouteReader {
  let file: String
  let source: ByteSource

  func read() throws(InputFileError) -> Route {
    var builder = RouteBuilder(file: file)
    var lines = LineReader(source)
    var header: CSVHeader?
    do {
      while !builder.isFull, let line = try lines.next() {
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
        guard let header else {
          header = CSVHeader(line: Array(line))
          if header == nil {
            builder.report(
              "expected a header line naming latitude and longitude columns (such as"
                + " 'lat,lon,alt,time')", at: lines.lineNumber)
            break
          }
          continue
        }
        readRow(line, header: header, line: lines.lineNumber, into: &builder)
      }
    } catch {
      switch error {
      case .lineTooLong(let line):
        builder.report(
          "line longer than \(LineReader.maximumLineLength) bytes: expected one point a line",
          at: line)
      case .unreadable(let failure): throw failure
      }
    }
    return try (consume builder).finish(emptyMessage: "expected a header line and one row a point")
  }

  private func readRow(
    _ text: ArraySlice<UInt8>, header: CSVHeader, line: Int, into builder: inout RouteBuilder
  ) {
    let fields: [String]
    do { fields = try CSVRow.fields(of: text, separator: header.separator) } catch {
      builder.report("unterminated quote: expected a closing '\"' on the same line", at: line)
      return
    }
    guard fields.count >= header.fieldCount else {
      builder.report(
        "\(fields.count) fields, expected at least \(header.fieldCount) as the header says",
        at: line)
      return
    }
    func number(_ column: Int, _ name: String) -> Double? {
      guard let value = RouteText.number(fields[column]) else {
        builder.report(RouteText.notANumber(name, fields[column]), at: line)
        return nil
      }
      return value
    }
    let latitude = number(header.latitude, "latitude")
    let longitude = number(header.longitude, "longitude")
    var altitude: Double?
    if let column = header.altitude, !fields[column].trimmingWhitespace.isEmpty {
      guard let value = number(column, "altitude") else { return }
      altitude = value
    }
    var time: UTCInstant?
    if let column = header.time, !fields[column].trimmingWhitespace.isEmpty {
      do {
        if let dateColumn = header.date {
          time = try RouteText.time(date: fields[dateColumn], timeOfDay: fields[column])
        } else {
          time = try RouteText.time(fields[column])
        }
      } catch {
        builder.report("time \(RouteText.quoted(fields[column])): \(error)", at: line)
        return
      }
    }
    guard let latitude, let longitude else { return }
    builder.addPoint(
      latitude: latitude, longitude: longitude, altitude: altitude, time: time, at: line)
  }
}
