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

  /// A decimal number such as `45.772175035`, `-0.5` or `1e3`, with spaces around allowed;
  /// nil for anything else, including `NaN`, `inf` and hexadecimal.
  static func number(_ text: some StringProtocol) -> Double? {
    let bytes = Substring(text).utf8
    var start = bytes.startIndex
    var end = bytes.endIndex
    while start < end, isSpace(bytes[start]) { start = bytes.index(after: start) }
    while end > start, isSpace(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
    let digits = bytes[start..<end]
    guard !digits.isEmpty, digits.allSatisfy({ isDigit($0) || isNumberSign($0) }),
      digits.contains(where: isDigit)
    else { return nil }
    return Double(Substring(digits))
  }

  /// `number(_:)` read from UTF-8 bytes; a short decimal such as a coordinate is converted
  /// without making a `String`.
  static func number(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var start = 0
    var end = bytes.count
    while start < end, isSpace(bytes[start]) { start += 1 }
    while end > start, isSpace(bytes[end - 1]) { end -= 1 }
    let digits = UnsafeBufferPointer(rebasing: bytes[start..<end])
    if let value = shortDecimal(digits) { return value }
    guard !digits.isEmpty, digits.allSatisfy({ isDigit($0) || isNumberSign($0) }),
      digits.contains(where: isDigit)
    else { return nil }
    return Double(String(decoding: digits, as: UTF8.self))
  }

  /// The powers of ten that a `Double` holds exactly, up to the most fraction digits
  /// `shortDecimal` reads.
  private static let exactPowersOfTen: [Double] = (0...15).map { pow10($0) }

  private static func pow10(_ exponent: Int) -> Double {
    (0..<exponent).reduce(1) { power, _ in power * 10 }
  }

  /// `[-]digits[.digits]` with at most 15 digits, or nil for any other text (`number(utf8:)`
  /// then asks the standard library).
  ///
  /// The digits make an integer below 2^53 and the divisor is a power of ten up to 10^15, both
  /// exact in a `Double`, so the one division is correctly rounded: the result is the same as
  /// `strtod`'s (Clinger's fast path).
  private static func shortDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    guard var cursor = bytes.baseAddress else { return nil }
    let end = cursor + bytes.count
    let negative = cursor < end && cursor.pointee == UInt8(ascii: "-")
    if negative { cursor += 1 }
    var mantissa: Int64 = 0
    // Wraps only past 18 digits, which are refused below.
    let integerStart = cursor
    while cursor < end, case let digit = cursor.pointee &- UInt8(ascii: "0"), digit < 10 {
      mantissa = mantissa &* 10 &+ Int64(digit)
      cursor += 1
    }
    let integerDigits = cursor - integerStart
    var fractionDigits = 0
    if integerDigits > 0, cursor < end, cursor.pointee == UInt8(ascii: ".") {
      cursor += 1
      let fractionStart = cursor
      while cursor < end, case let digit = cursor.pointee &- UInt8(ascii: "0"), digit < 10 {
        mantissa = mantissa &* 10 &+ Int64(digit)
        cursor += 1
      }
      fractionDigits = cursor - fractionStart
      guard fractionDigits > 0 else { return nil }
    }
    guard cursor == end, integerDigits > 0, integerDigits + fractionDigits <= 15 else {
      return nil
    }
    let magnitude = Double(mantissa) / exactPowersOfTen[fractionDigits]
    return negative ? -magnitude : magnitude
  }

  private static func isNumberSign(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
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
