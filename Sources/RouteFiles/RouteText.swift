import InputFiles
import Simulation

/// The numbers and times written in route files.
enum RouteText {
  /// The longest text quoted in a message, in characters.
  static let quotedLength = 40

  /// Text from a file as a message quotes it: in single quotes, trimmed, with control characters
  /// such as line ends escaped (a diagnostic is one line), and cut after `quotedLength`
  /// characters.
  static func quoted(_ text: some StringProtocol) -> String {
    var result = ""
    for (index, scalar) in text.trimmingWhitespace.unicodeScalars.enumerated() {
      guard index < quotedLength else {
        result += "…"
        break
      }
      result +=
        scalar.properties.generalCategory == .control
        ? scalar.escaped(asASCII: true) : String(scalar)
    }
    return "'\(result)'"
  }

  /// A number as `NumberSpelling` spells it (`45.772175035`, `-0.5`, `1e3`), with the white
  /// space that lays out the file's field around it taken away; nil for anything else, `+1`,
  /// `007`, `NaN`, `inf` and hexadecimal included.
  static func number(_ text: some StringProtocol) -> Double? {
    var text = String(text)
    return text.withUTF8 { number(utf8: $0) }
  }

  /// The message for a field that is not a number: `latitude '+48.2' is not a number (no '+'
  /// sign: numbers are written as in JSON)`, the reason given when the text looks like one.
  static func notANumber(_ name: String, _ text: some StringProtocol) -> String {
    "\(name) \(quoted(text)) is not a number\(NumberSpelling.refusalNote(text))"
  }

  /// `number(_:)` read from UTF-8 bytes.
  static func number(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var start = 0
    var end = bytes.count
    while start < end, isSpace(bytes[start]) { start += 1 }
    while end > start, isSpace(bytes[end - 1]) { end -= 1 }
    return NumberSpelling.decimal(utf8: UnsafeBufferPointer(rebasing: bytes[start..<end]))
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// A time in ISO 8601 (RFC 3339): `2010-08-05T14:23:59Z`, with a fraction, or with an offset
  /// from UTC such as `+02:00`, which is taken away to give UTC.
  ///
  /// - Throws: a one-line description of what is wrong.
  static func time(_ text: some StringProtocol) throws(ISO8601Error) -> UTCInstant {
    // The usual form, without spaces or offset, goes straight to the strict parser.
    let utf8 = Substring(text).utf8
    if utf8.last == UInt8(ascii: "Z"), let first = utf8.first, isDigit(first) {
      return try UTCInstant(iso8601: text)
    }
    let trimmed = text.trimmingWhitespace
    let bytes = Array(trimmed.utf8)
    guard bytes.count > 6 else { return try UTCInstant(iso8601: trimmed) }
    let zone = bytes[(bytes.count - 6)...]
    let sign = zone[zone.startIndex]
    guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
      zone[zone.startIndex + 3] == UInt8(ascii: ":"),
      let hours = Int(
        String(
          decoding: zone[(zone.startIndex + 1)...(zone.startIndex + 2)],
          as: UTF8.self)),
      let minutes = Int(String(decoding: zone[(zone.startIndex + 4)...], as: UTF8.self)),
      hours < 24, minutes < 60
    else { return try UTCInstant(iso8601: trimmed) }
    let local = try UTCInstant(
      iso8601: String(decoding: bytes[..<(bytes.count - 6)], as: UTF8.self) + "Z")
    let offset = Int64(hours * 3600 + minutes * 60) * UTCInstant.nanosecondsPerSecond
    return local.adding(nanoseconds: sign == UInt8(ascii: "+") ? -offset : offset)
  }

  /// `time(_:)` read from UTF-8 bytes; the usual form is parsed without making a `String`.
  static func time(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(ISO8601Error) -> UTCInstant {
    if bytes.last == UInt8(ascii: "Z"), let first = bytes.first, isDigit(first) {
      return try UTCInstant(iso8601UTF8: bytes)
    }
    return try time(String(decoding: bytes, as: UTF8.self))
  }

  /// A time written as a date (`2017/07/29` or `2017-07-29`) and a time of day (`14:46:35`,
  /// with a fraction allowed) in UTC, as GPSBabel's `unicsv` writes them.
  static func time(date: some StringProtocol, timeOfDay: some StringProtocol) throws(ISO8601Error)
    -> UTCInstant
  {
    let day = date.trimmingWhitespace.map { $0 == "/" ? "-" : $0 }
    return try UTCInstant(iso8601: String(day) + "T" + timeOfDay.trimmingWhitespace + "Z")
  }
}
