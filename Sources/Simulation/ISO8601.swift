/// Why text is not a UTC time in the one ISO 8601 form mockgps reads.
public enum ISO8601Error: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text does not have the shape `YYYY-MM-DDTHH:MM:SS[.fraction]Z`.
  case malformed
  /// The time zone is an offset other than `Z` or `+00:00`.
  case notUTC(offset: String)
  /// The year is outside what nanoseconds in an `Int64` can hold.
  case yearOutOfRange(Int)
  case monthOutOfRange(Int)
  case dayOutOfRange(Int, year: Int, month: Int, lastDay: Int)
  case hourOutOfRange(Int)
  case minuteOutOfRange(Int)
  case secondOutOfRange(Int)
  /// Second 60: `UTCInstant` counts time as POSIX does, without leap seconds.
  case leapSecond
  /// More than 9 fraction digits: finer than a nanosecond.
  case tooManyFractionDigits(Int)

  public var description: String {
    switch self {
    case .malformed:
      return "expected a UTC time YYYY-MM-DDTHH:MM:SS[.fraction]Z"
    case .notUTC(let offset):
      return "offset '\(offset)' is not UTC (expected Z or +00:00)"
    case .yearOutOfRange(let year):
      return "year \(year) is outside \(UTCInstant.iso8601Years.lowerBound)..."
        + "\(UTCInstant.iso8601Years.upperBound)"
    case .monthOutOfRange(let month):
      return "month \(month) is outside 1...12"
    case .dayOutOfRange(let day, let year, let month, let lastDay):
      let monthText = month < 10 ? "0\(month)" : "\(month)"
      return "day \(day) is outside 1...\(lastDay) in \(year)-\(monthText)"
    case .hourOutOfRange(let hour):
      return "hour \(hour) is outside 0...23"
    case .minuteOutOfRange(let minute):
      return "minute \(minute) is outside 0...59"
    case .secondOutOfRange(let second):
      return "second \(second) is outside 0...59"
    case .leapSecond:
      return "second 60 (a leap second) cannot be given: UTC time here does not count leap seconds"
    case .tooManyFractionDigits(let count):
      return "\(count) fraction digits; at most 9 (nanoseconds)"
    }
  }
}

extension UTCInstant {
  /// The years `init(iso8601:)` accepts: whole years whose nanoseconds fit in an `Int64`.
  public static let iso8601Years = 1678...2261

  /// Parses a UTC time written `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (RFC 3339 in UTC).
  ///
  /// Strict: the letters `T` and `Z` are upper case; `+00:00` may stand for `Z`, no other offset
  /// is accepted; the month is 1–12, the day exists in its month (Gregorian leap years), the hour
  /// is below 24, the minute and the second below 60, and the fraction has 1 to 9 digits.
  /// Leap seconds (`23:59:60`) are refused, since `UTCInstant` counts time as POSIX does.
  ///
  /// - Throws: `ISO8601Error`, whose description says what is wrong.
  public init(iso8601 text: some StringProtocol) throws(ISO8601Error) {
    var string = String(text)
    self = try string.withUTF8 { bytes in
      Result { () throws(ISO8601Error) in try UTCInstant(iso8601UTF8: bytes) }
    }.get()
  }

  /// Parses the UTF-8 bytes of a UTC time, as `init(iso8601:)` does, without making a `String`.
  ///
  /// - Throws: `ISO8601Error`, whose description says what is wrong.
  public init(iso8601UTF8 bytes: UnsafeBufferPointer<UInt8>) throws(ISO8601Error) {
    func number(_ range: Range<Int>) throws(ISO8601Error) -> Int {
      guard range.upperBound <= bytes.count else { throw .malformed }
      var value = 0
      for index in range {
        let digit = bytes[index] &- UInt8(ascii: "0")
        guard digit < 10 else { throw .malformed }
        value = value * 10 + Int(digit)
      }
      return value
    }
    func expect(_ character: Unicode.Scalar, at index: Int) throws(ISO8601Error) {
      guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { throw .malformed }
    }
    let year = try number(0..<4)
    try expect("-", at: 4)
    let month = try number(5..<7)
    try expect("-", at: 7)
    let day = try number(8..<10)
    try expect("T", at: 10)
    let hour = try number(11..<13)
    try expect(":", at: 13)
    let minute = try number(14..<16)
    try expect(":", at: 16)
    let second = try number(17..<19)
    var index = 19
    var nanosecond = 0
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      let start = index
      while index < bytes.count, bytes[index] >= UInt8(ascii: "0"),
        bytes[index] <= UInt8(ascii: "9")
      {
        index += 1
      }
      let digits = index - start
      guard digits > 0 else { throw .malformed }
      guard digits <= 9 else { throw .tooManyFractionDigits(digits) }
      nanosecond = try number(start..<index)
      for _ in digits..<9 { nanosecond *= 10 }
    }
    let zone = UnsafeBufferPointer(rebasing: bytes[index...])
    guard (zone.count == 1 && zone[0] == UInt8(ascii: "Z")) || zone.elementsEqual("+00:00".utf8)
    else {
      guard zone.count == 6, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-") else {
        throw .malformed
      }
      throw .notUTC(offset: String(decoding: zone, as: UTF8.self))
    }
    guard Self.iso8601Years.contains(year) else { throw .yearOutOfRange(year) }
    guard (1...12).contains(month) else { throw .monthOutOfRange(month) }
    let lastDay = Self.daysIn(month: month, year: year)
    guard (1...lastDay).contains(day) else {
      throw .dayOutOfRange(day, year: year, month: month, lastDay: lastDay)
    }
    guard hour < 24 else { throw .hourOutOfRange(hour) }
    guard minute < 60 else { throw .minuteOutOfRange(minute) }
    guard second != 60 else { throw .leapSecond }
    guard second < 60 else { throw .secondOutOfRange(second) }
    self.init(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second,
      nanosecond: nanosecond)
  }

  /// The number of days in a month of the proleptic Gregorian calendar.
  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2:
      let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
      return leap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}
