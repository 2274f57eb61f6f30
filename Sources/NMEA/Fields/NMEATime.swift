/// A UTC time of day as NMEA writes it: `hhmmss` with optional decimal seconds.
public struct NMEATime: Hashable, Sendable, CustomStringConvertible {
  /// 0–23.
  public var hours: Int
  /// 0–59.
  public var minutes: Int
  /// 0 to less than 61 (a leap second is 60.x), with the digits the receiver printed.
  public var seconds: NMEADecimal

  /// Creates a time from its parts.
  public init(hours: Int, minutes: Int, seconds: NMEADecimal) {
    self.hours = hours
    self.minutes = minutes
    self.seconds = seconds
  }

  /// Parses `hhmmss[.s…]`; nil when out of range or malformed.
  public init?(_ text: some StringProtocol) {
    let string = String(text)
    guard string.utf8.count >= 6 else { return nil }
    let secondsStart = string.index(string.startIndex, offsetBy: 4)
    let hoursText = string.prefix(2)
    let minutesText = string[string.index(string.startIndex, offsetBy: 2)..<secondsStart]
    guard hoursText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      minutesText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      let hours = Int(hoursText), let minutes = Int(minutesText),
      let seconds = NMEADecimal(string[secondsStart...]), !seconds.isNegative,
      seconds.integerDigits == 2, hours < 24, minutes < 60, seconds.doubleValue < 61
    else { return nil }
    self.init(hours: hours, minutes: minutes, seconds: seconds)
  }

  /// Seconds since midnight.
  public var secondsOfDay: Double {
    Double(hours * 3600 + minutes * 60) + seconds.doubleValue
  }

  /// `hhmmss.ss`.
  public var description: String { SentenceWriter.text(write(to:)) }

  /// Writes `hhmmss.ss`.
  func write(to writer: inout SentenceWriter) {
    writer.appendTwoDigits(hours)
    writer.appendTwoDigits(minutes)
    writer.append(seconds)
  }
}

/// A date as RMC writes it: `ddmmyy`.
public struct NMEADate: Hashable, Sendable, CustomStringConvertible {
  /// 1–31.
  public var day: Int
  /// 1–12.
  public var month: Int
  /// Two-digit year, 0–99.
  public var year: Int

  /// Creates a date from its parts.
  public init(day: Int, month: Int, year: Int) {
    self.day = day
    self.month = month
    self.year = year
  }

  /// Parses `ddmmyy`; nil when out of range or malformed.
  public init?(_ text: some StringProtocol) {
    let utf8 = Array(text.utf8)
    guard utf8.count == 6, utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    let number = { (at: Int) in Int(utf8[at] - 0x30) * 10 + Int(utf8[at + 1] - 0x30) }
    self.init(day: number(0), month: number(2), year: number(4))
    guard (1...31).contains(day), (1...12).contains(month) else { return nil }
  }

  /// `ddmmyy`.
  public var description: String { SentenceWriter.text(write(to:)) }

  /// Writes `ddmmyy`.
  func write(to writer: inout SentenceWriter) {
    writer.appendTwoDigits(day)
    writer.appendTwoDigits(month)
    writer.appendTwoDigits(year)
  }
}
