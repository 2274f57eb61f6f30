/// Reads the time and date fields of an NMEA sentence by position, without parsing the rest:
/// the reader looks at every sentence of a log, so this is kept to a few byte comparisons.
enum NMEASentenceTimes {
  /// The time of day of a sentence (`$GPGGA,123519.20,…`), or nil for a sentence without one,
  /// with an empty time, or with a time that is no `hhmmss[.s…]`.
  /// Read through a buffer pointer, by index, with the type told by a switch over its three
  /// letters: a table of types (a lazily made global), field slices and a closure per field
  /// were some 220 instructions a sentence, a tenth of an unpaced replay's.
  static func time(of sentence: ArraySlice<UInt8>) -> LogTime? {
    sentence.withUnsafeBufferPointer { bytes in
      guard let (number, source) = timeField(of: bytes),
        let nanoseconds = timeOfDayNanoseconds(bytes, in: field(number, of: bytes))
      else { return nil }
      return LogTime(nanoseconds: nanoseconds, scale: .timeOfDay, source: source)
    }
  }

  /// The date of an RMC (`ddmmyy`, field 9) or ZDA (`dd,mm,yyyy`, fields 2–4), or nil.
  static func date(of sentence: [UInt8]) -> LogHeader.Day? {
    guard sentence.count > 6, sentence[0] == UInt8(ascii: "$") else { return nil }
    let type = sentence[3..<6]
    if type.elementsEqual("RMC".utf8) {
      guard let field = fields(of: sentence, upTo: 9).dropFirst(8).first, field.count == 6,
        let day = number(field[field.startIndex..<field.startIndex + 2]),
        let month = number(field[field.startIndex + 2..<field.startIndex + 4]),
        let year = number(field[field.startIndex + 4..<field.startIndex + 6])
      else { return nil }
      return validDay(year: year < 80 ? 2000 + year : 1900 + year, month: month, day: day)
    }
    if type.elementsEqual("ZDA".utf8) {
      let parts = fields(of: sentence, upTo: 4)
      guard parts.count == 4, let day = number(parts[1]), let month = number(parts[2]),
        parts[3].count == 4, let year = number(parts[3])
      else { return nil }
      return validDay(year: year, month: month, day: day)
    }
    return nil
  }

  private static func validDay(year: Int, month: Int, day: Int) -> LogHeader.Day? {
    guard (1980...2200).contains(year), (1...12).contains(month), (1...31).contains(day) else {
      return nil
    }
    return LogHeader.Day(year: year, month: month, day: day)
  }

  /// The field that carries the time of the fix in a sentence of this type (from 1, after the
  /// address), and how far it is trusted (see `LogTime.Source`); nil for other types.
  private static func timeField(of sentence: UnsafeBufferPointer<UInt8>) -> (
    Int, LogTime.Source
  )? {
    // `$` + two talker letters + three type letters + `,`.
    guard sentence.count > 7, sentence[0] == UInt8(ascii: "$"), sentence[6] == UInt8(ascii: ",")
    else { return nil }
    switch (sentence[3], sentence[4], sentence[5]) {
    case (0x52, 0x4D, 0x43), (0x47, 0x47, 0x41), (0x47, 0x4E, 0x53), (0x47, 0x42, 0x53):
      return (1, .nmeaPrimary)  // RMC, GGA, GNS, GBS
    case (0x47, 0x4C, 0x4C): return (5, .nmeaPrimary)  // GLL
    case (0x5A, 0x44, 0x41), (0x47, 0x53, 0x54): return (1, .nmeaSecondary)  // ZDA, GST
    default: return nil
    }
  }

  /// The bounds of field `last` (from 1), or of the last one when the sentence has fewer: fields
  /// start after the first comma (at 6 or before: see `timeField`) and end at a comma, `*`, CR,
  /// LF or the end of the bytes.
  private static func field(_ last: Int, of sentence: UnsafeBufferPointer<UInt8>) -> Range<Int> {
    var start = 1
    while sentence[start - 1] != UInt8(ascii: ",") { start += 1 }
    var count = 1
    var index = start
    while index < sentence.count {
      let byte = sentence[index]
      if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "*") || byte == 0x0D || byte == 0x0A {
        if count == last || byte != UInt8(ascii: ",") { return start..<index }
        count += 1
        start = index + 1
      }
      index += 1
    }
    return start..<index
  }

  /// Fields 1 through `last` (fewer if the sentence has fewer), without the checksum.
  private static func fields(of sentence: [UInt8], upTo last: Int) -> [ArraySlice<UInt8>] {
    var result: [ArraySlice<UInt8>] = []
    forEachField(of: sentence, upTo: last) { result.append($0) }
    return result
  }

  /// Calls `body` with fields 1 through `last` in order (fewer if the sentence has fewer),
  /// without the checksum.
  private static func forEachField<Bytes: RandomAccessCollection<UInt8>>(
    of sentence: Bytes, upTo last: Int, _ body: (Bytes.SubSequence) -> Void
  ) where Bytes.Index == Int {
    guard var start = sentence.firstIndex(of: UInt8(ascii: ",")).map({ $0 + 1 }) else { return }
    var index = start
    var count = 0
    while index <= sentence.endIndex, count < last {
      let byte = index < sentence.endIndex ? sentence[index] : 0x0A
      if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "*") || byte == 0x0D || byte == 0x0A {
        body(sentence[start..<index])
        count += 1
        if byte != UInt8(ascii: ",") { break }
        start = index + 1
      }
      index += 1
    }
  }

  /// `hhmmss` with up to nine decimals, at `range` of `bytes` → nanoseconds of the day.
  private static func timeOfDayNanoseconds(
    _ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>
  ) -> Int64? {
    func digit(_ index: Int) -> Int64? {
      let value = bytes[index] &- UInt8(ascii: "0")
      return value < 10 ? Int64(value) : nil
    }
    let start = range.lowerBound
    guard range.count >= 6, let h1 = digit(start), let h2 = digit(start + 1),
      let m1 = digit(start + 2), let m2 = digit(start + 3), let s1 = digit(start + 4),
      let s2 = digit(start + 5)
    else { return nil }
    let (hours, minutes, seconds) = (h1 * 10 + h2, m1 * 10 + m2, s1 * 10 + s2)
    guard hours < 24, minutes < 60, seconds < 61 else { return nil }
    var nanoseconds = ((hours * 60 + minutes) * 60 + seconds) * 1_000_000_000
    guard range.count > 6 else { return nanoseconds }
    let decimals = (start + 7)..<range.upperBound
    guard bytes[start + 6] == UInt8(ascii: "."), decimals.count <= 9 else { return nil }
    var scale: Int64 = 100_000_000
    for index in decimals {
      guard let value = digit(index) else { return nil }
      nanoseconds += value * scale
      scale /= 10
    }
    return nanoseconds
  }

  private static func number<Digits: Collection<UInt8>>(_ digits: Digits) -> Int? {
    guard !digits.isEmpty else { return nil }
    var value = 0
    for byte in digits {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }
}
