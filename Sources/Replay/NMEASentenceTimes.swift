/// Reads the time and date fields of an NMEA sentence by position, without parsing the rest:
/// the reader looks at every sentence of a log, so this is kept to a few byte comparisons.
enum NMEASentenceTimes {
  /// The sentence types that carry the UTC time of the fix, with the field it is in (from 1,
  /// after the address), and how far their time is trusted (see `LogTime.Source`).
  private static let timeFields: [(type: UInt32, field: Int, source: LogTime.Source)] = [
    (typeCode("RMC".utf8), 1, .nmeaPrimary),
    (typeCode("GGA".utf8), 1, .nmeaPrimary),
    (typeCode("GNS".utf8), 1, .nmeaPrimary),
    (typeCode("GBS".utf8), 1, .nmeaPrimary),
    (typeCode("GLL".utf8), 5, .nmeaPrimary),
    (typeCode("ZDA".utf8), 1, .nmeaSecondary),
    (typeCode("GST".utf8), 1, .nmeaSecondary),
  ]

  /// Three type letters as one number, compared at once.
  private static func typeCode(_ letters: some Collection<UInt8>) -> UInt32 {
    letters.reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// The time of day of a sentence (`$GPGGA,123519.20,…`), or nil for a sentence without one,
  /// with an empty time, or with a time that is no `hhmmss[.s…]`.
  /// Read through a buffer pointer: the fields looked at are slices of it, which take no
  /// reference (an array's slices were a retain and a release each, for every field up to the
  /// time of every sentence of a replay).
  static func time(of sentence: ArraySlice<UInt8>) -> LogTime? {
    sentence.withUnsafeBufferPointer { bytes in
      guard let (field, source) = timeField(of: bytes),
        let value = self.field(field, of: bytes),
        let nanoseconds = timeOfDayNanoseconds(value)
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

  private static func timeField(of sentence: UnsafeBufferPointer<UInt8>) -> (
    Int, LogTime.Source
  )? {
    // `$` + two talker letters + three type letters + `,`.
    guard sentence.count > 7, sentence[0] == UInt8(ascii: "$"), sentence[6] == UInt8(ascii: ",")
    else { return nil }
    let type = typeCode(sentence[3..<6])
    for row in timeFields where row.type == type { return (row.field, row.source) }
    return nil
  }

  /// Fields 1 through `last` (fewer if the sentence has fewer), without the checksum.
  private static func fields(of sentence: [UInt8], upTo last: Int) -> [ArraySlice<UInt8>] {
    var result: [ArraySlice<UInt8>] = []
    forEachField(of: sentence, upTo: last) { result.append($0) }
    return result
  }

  /// Field `last`, or the last one when the sentence has fewer (the last of `fields`), without
  /// building the others: every timed sentence of a log is read for it.
  private static func field(_ last: Int, of sentence: UnsafeBufferPointer<UInt8>) -> Slice<
    UnsafeBufferPointer<UInt8>
  >? {
    var found: Slice<UnsafeBufferPointer<UInt8>>?
    forEachField(of: sentence, upTo: last) { found = $0 }
    return found
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

  /// `hhmmss` with up to nine decimals → nanoseconds of the day.
  static func timeOfDayNanoseconds<Text: Collection<UInt8>>(_ text: Text) -> Int64? {
    guard text.count >= 6, let hours = number(text.prefix(2)),
      let minutes = number(text.dropFirst(2).prefix(2)),
      let seconds = number(text.dropFirst(4).prefix(2)),
      hours < 24, minutes < 60, seconds < 61
    else { return nil }
    var nanoseconds = Int64(hours * 3600 + minutes * 60 + seconds) * 1_000_000_000
    let rest = text.dropFirst(6)
    if let dot = rest.first {
      let decimals = rest.dropFirst()
      guard dot == UInt8(ascii: "."), decimals.count <= 9 else { return nil }
      if !decimals.isEmpty {
        guard let fraction = number(decimals) else { return nil }
        var scale: Int64 = 1
        for _ in decimals.count..<9 { scale *= 10 }
        nanoseconds += Int64(fraction) * scale
      }
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
