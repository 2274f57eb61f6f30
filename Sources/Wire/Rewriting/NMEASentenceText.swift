import NMEA

/// An NMEA sentence taken apart for rewriting: its comma-separated fields, whether it had a
/// checksum and in which case, and the bytes after it (the line end), kept as recorded.
package struct NMEASentenceText {
  /// The fields between `$` and `*`; the first is the address (`GPGGA`, `PGRMF`).
  package var fields: [ArraySlice<UInt8>]
  private let hasChecksum: Bool
  private let lowercaseChecksum: Bool
  private let tail: ArraySlice<UInt8>

  /// Takes a `$` sentence apart; nil for anything else, a sentence whose checksum gpsd's lexer
  /// rejects (it is replayed as recorded), or one holding control or non-ASCII bytes.
  ///
  /// gpsd 3.22 checks only a checksum of upper-case hex digits: a sentence whose two checksum
  /// digits hold a lower-case letter is taken unchecked, so it is taken apart here too, and
  /// written back with its right checksum in the recorded case.
  package init?(_ bytes: [UInt8]) {
    guard bytes.first == UInt8(ascii: "$"), !NMEALineCheck.checksumIsWrong(bytes) else {
      return nil
    }
    var end = 1
    while end < bytes.count, bytes[end] != UInt8(ascii: "*"), bytes[end] != 0x0D,
      bytes[end] != 0x0A
    {
      guard (0x20...0x7E).contains(bytes[end]) else { return nil }
      end += 1
    }
    let body = bytes[1..<end]
    if end < bytes.count, bytes[end] == UInt8(ascii: "*") {
      guard end + 3 <= bytes.count,
        let found = Checksum.parseHex(
          Substring(decoding: bytes[(end + 1)..<(end + 3)], as: UTF8.self))
      else { return nil }
      lowercaseChecksum = bytes[(end + 1)..<(end + 3)].contains { (0x61...0x66).contains($0) }
      guard found == Checksum.of(body) || lowercaseChecksum else { return nil }
      hasChecksum = true
      tail = bytes[(end + 3)...]
    } else {
      hasChecksum = false
      lowercaseChecksum = false
      tail = bytes[end...]
    }
    fields = body.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
  }

  /// The address: `GPGGA`, `PGRMF`.
  package var address: ArraySlice<UInt8> { fields[0] }

  /// The sentence with its fields as they are now, its checksum recomputed (in the recorded
  /// case) if it had one, and the recorded line end.
  package var bytes: [UInt8] {
    var body: [UInt8] = []
    body.reserveCapacity(96)
    for (index, field) in fields.enumerated() {
      if index > 0 { body.append(UInt8(ascii: ",")) }
      body += field
    }
    var bytes = [UInt8(ascii: "$")] + body
    if hasChecksum {
      let hex = Array(Checksum.hex(Checksum.of(body)).utf8)
      bytes.append(UInt8(ascii: "*"))
      bytes += lowercaseChecksum ? hex.map { $0 >= 0x41 ? $0 | 0x20 : $0 } : hex
    }
    return bytes + tail
  }

  /// Field `index`, or an empty field past the end.
  package subscript(index: Int) -> ArraySlice<UInt8> {
    index < fields.count ? fields[index] : []
  }

  /// Replaces field `index` (which exists).
  package mutating func set(_ index: Int, _ value: [UInt8]) {
    fields[index] = value[...]
  }
}
