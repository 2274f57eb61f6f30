/// A new time of day written over the old one in lines written by `SentenceBody.lineBytes`,
/// with their checksums corrected: what makes an epoch of a receiver standing still from the
/// last one, whose lines differ in their time fields alone. Both times' texts must be as long
/// (hours and minutes in two digits each, the seconds with as many digits): patching never
/// moves a byte.
public struct LineTimePatch: Sendable {
  /// The old time's text and the new one's, as many bytes each (at most 16: `hhmmss.` and nine
  /// digits), in place rather than in arrays: a patch is made every epoch.
  private let old: TimeText
  private let new: TimeText
  /// The XOR of the two texts: what the checksum of a line changes by.
  private let checksumChange: UInt8

  /// Nil when the two times' texts differ in length.
  public init?(from old: NMEATime, to new: NMEATime) {
    guard let old = TimeText(old), let new = TimeText(new), old.count == new.count else {
      return nil
    }
    self.old = old
    self.new = new
    var change: UInt8 = 0
    for index in 0..<old.count { change ^= old.bytes[index] ^ new.bytes[index] }
    checksumChange = change
  }

  /// Where the time's text starts in `line`, the line of a sentence whose table (`spec`) has its
  /// time in field `timeField`: after that many commas. Nil when the line has fewer.
  public static func timeStart(inLine line: [UInt8], timeField: Int) -> Int? {
    var commas = 0
    for index in line.indices where line[index] == UInt8(ascii: ",") {
      commas += 1
      if commas == timeField { return index + 1 }
    }
    return nil
  }

  /// `line` with the old time's text at `start` replaced by the new one's and its checksum
  /// corrected; nil when the old text is not there, or the line does not end in `*hh` CR LF.
  public func patched(_ line: [UInt8], timeStart start: Int) -> [UInt8]? {
    var patched = line
    return patch(&patched, timeStart: start) ? patched : nil
  }

  /// Patches `line` as `patched(_:timeStart:)` does, in place: a line no one else holds (the
  /// epoch before has been sent and let go) is written over, not copied. False, `line`
  /// unchanged, when the old text is not there or the line does not end in `*hh` CR LF.
  public func patch(_ line: inout [UInt8], timeStart start: Int) -> Bool {
    let end = start + old.count
    let star = line.count - 5
    guard start > 0, end <= star else { return false }
    // The checks too on the storage, whose indices are checked above.
    return line.withUnsafeMutableBufferPointer { bytes in
      guard bytes[star] == UInt8(ascii: "*"),
        let high = Self.hexValue(bytes[star + 1]), let low = Self.hexValue(bytes[star + 2])
      else { return false }
      for index in 0..<old.count where bytes[start + index] != old.bytes[index] { return false }
      for index in 0..<new.count { bytes[start + index] = new.bytes[index] }
      let checksum = (high << 4 | low) ^ checksumChange
      bytes[star + 1] = Checksum.hexDigit(checksum >> 4)
      bytes[star + 2] = Checksum.hexDigit(checksum & 0x0F)
      return true
    }
  }

  /// The value of an uppercase hexadecimal digit, as `Checksum.hexDigit` writes it.
  private static func hexValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}

/// A time's text (`NMEATime.description`) in place, when hours and minutes take two digits
/// each (0…99), as every time a receiver writes does, and it fits 16 bytes.
private struct TimeText: Sendable {
  var bytes = SIMD16<UInt8>()
  let count: Int

  init?(_ time: NMEATime) {
    let secondsLength = time.seconds.textLength
    guard (0..<100).contains(time.hours), (0..<100).contains(time.minutes),
      secondsLength <= 12
    else { return nil }
    count = 4 + secondsLength
    bytes[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: time.hours / 10)
    bytes[1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: time.hours % 10)
    bytes[2] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: time.minutes / 10)
    bytes[3] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: time.minutes % 10)
    let end = count
    withUnsafeMutableBytes(of: &bytes) { raw in
      let text = raw.bindMemory(to: UInt8.self)
      time.seconds.writeText(into: UnsafeMutableBufferPointer(rebasing: text[4..<end]))
    }
  }
}

extension SentenceSpec {
  /// The number of the field that holds the time of day (from 1, as `fieldNumber(of:)`
  /// counts), or nil when the sentence has none or a group of varying width comes before it.
  public var timeFieldNumber: Int? {
    var number = 1
    for field in fields {
      if case .time = field.encoding { return number }
      guard field.keyPath != nil else { return nil }
      number += field.emptyWidth
    }
    return nil
  }
}
