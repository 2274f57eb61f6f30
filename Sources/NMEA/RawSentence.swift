/// One NMEA 0183 sentence as its address and fields, before any field is interpreted.
///
///     $GPGGA,123519,4807.038,N,...*47
///      ^^^^^ address            ^^ checksum of everything between '$' and '*'
public struct RawSentence: Hashable, Sendable, CustomStringConvertible {
  /// `$` for ordinary sentences, `!` for encapsulated ones (AIS).
  public var startDelimiter: Character
  /// Talker and sentence type, such as `GPGGA`, or a proprietary address such as `PMTK001`.
  public var address: String
  /// The fields after the address, as text, without separators.
  public var fields: [String]
  /// False for the rare receivers that send no `*hh` (NMEA 0183 before 2.0 allowed that).
  public var hasChecksum: Bool

  /// Creates a sentence from its parts.
  public init(
    address: String, fields: [String], startDelimiter: Character = "$", hasChecksum: Bool = true
  ) {
    self.startDelimiter = startDelimiter
    self.address = address
    self.fields = fields
    self.hasChecksum = hasChecksum
  }

  /// Parses one line, with or without its trailing CR LF, and verifies its checksum.
  ///
  /// - Parameters:
  ///   - line: The text of one sentence.
  ///   - requireChecksum: When false, a line without `*hh` is accepted (as gpsd does for old
  ///     receivers) and re-encodes without one.
  /// - Throws: `SentenceError` naming what is wrong and where.
  public init(parsing line: some StringProtocol, requireChecksum: Bool = true)
    throws(SentenceError)
  {
    var bytes = Array(line.utf8)
    while let last = bytes.last, last == 0x0D || last == 0x0A { bytes.removeLast() }
    guard let first = bytes.first else { throw .empty }
    guard first == UInt8(ascii: "$") || first == UInt8(ascii: "!") else {
      throw .missingStartDelimiter(found: String(decoding: bytes.prefix(8), as: UTF8.self))
    }
    let star = bytes.lastIndex(of: UInt8(ascii: "*"))
    guard star != nil || !requireChecksum else { throw .missingChecksum }
    let body = bytes[1..<(star ?? bytes.endIndex)]
    for (offset, byte) in zip(body.indices, body) where !RawSentence.isAllowedInBody(byte) {
      throw .invalidCharacter(byte, offset: offset)
    }
    if let star {
      let checksumText = Substring(String(decoding: bytes[(star + 1)...], as: UTF8.self))
      guard let found = Checksum.parseHex(checksumText) else {
        throw .malformedChecksum(String(checksumText))
      }
      let expected = Checksum.of(body)
      guard expected == found else { throw .badChecksum(expected: expected, found: found) }
    }
    var parts = String(decoding: body, as: UTF8.self).split(
      separator: ",", omittingEmptySubsequences: false
    ).map(String.init)
    let address = parts.removeFirst()
    guard RawSentence.isValidAddress(address) else { throw .invalidAddress(address) }
    self.init(
      address: address, fields: parts, startDelimiter: first == UInt8(ascii: "!") ? "!" : "$",
      hasChecksum: star != nil)
  }

  /// The two-letter talker (`GP`, `GN`, …), or `P` for proprietary sentences.
  public var talker: String {
    address.hasPrefix("P") ? "P" : String(address.prefix(2))
  }

  /// The sentence type without its talker (`GGA`), or the proprietary address without the `P`.
  public var type: String {
    address.hasPrefix("P") ? String(address.dropFirst()) : String(address.dropFirst(2))
  }

  /// The sentence body: address and fields joined by commas, without delimiters.
  public var body: String {
    ([address] + fields).joined(separator: ",")
  }

  /// The checksum of the body.
  public var checksum: UInt8 { Checksum.of(body.utf8) }

  /// The sentence as it is sent, without CR LF: `$GPGGA,…*47`.
  public var description: String { String(decoding: lineBytes.dropLast(2), as: UTF8.self) }

  /// The sentence as it goes on the wire, ending in CR LF.
  public var line: String { String(decoding: lineBytes, as: UTF8.self) }

  /// The bytes of `line`, written into one buffer with the checksum taken on the way: what an
  /// encoder sends each epoch, without building the text first.
  public var lineBytes: [UInt8] {
    var writer = SentenceWriter(
      startDelimiter: startDelimiter,
      capacity: fields.reduce(address.utf8.count + 8) { $0 + $1.utf8.count + 1 })
    writer.append(address)
    for field in fields { writer.appendField(field) }
    return writer.finishedLine(hasChecksum: hasChecksum)
  }

  static func isAllowedInBody(_ byte: UInt8) -> Bool {
    (0x20...0x7E).contains(byte) && byte != UInt8(ascii: "$") && byte != UInt8(ascii: "!")
      && byte != UInt8(ascii: "*")
  }

  static func isValidAddress(_ address: String) -> Bool {
    let utf8 = address.utf8
    guard (2...10).contains(utf8.count) else { return false }
    return utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
  }
}
