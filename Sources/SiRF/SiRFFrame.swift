/// One SiRF binary message as it travels on the wire.
///
///     A0 A2 | length (UInt16, big-endian, 15 bits) | payload | checksum (UInt16, 15 bits) | B0 B3
///
/// The payload's first byte is the message ID (MID). The checksum is the sum of the payload
/// bytes, kept to 15 bits; the length also has 15 bits (SiRF's "One Socket Protocol" caps
/// payloads at 1023 bytes, its extensions at 1032). The frame keeps only the payload; `bytes`
/// adds the rest.
public struct SiRFFrame: Hashable, Sendable {
  /// The start sequence.
  public static let start: [UInt8] = [0xA0, 0xA2]
  /// The end sequence.
  public static let end: [UInt8] = [0xB0, 0xB3]
  /// Bytes around the payload: start, length, checksum and end.
  public static let overhead = 8
  /// The longest payload accepted when parsing: the protocol's 1032 bytes (SiRFstarV OSP
  /// extensions). A longer length is taken for garbage.
  public static let maximumPayloadLength = 1032

  /// The payload: the message ID, then its fields.
  public var payload: [UInt8]

  /// Creates a frame from its whole payload, message ID first.
  public init(payload: [UInt8]) {
    self.payload = payload
  }

  /// Creates a frame of message `id` with its fields.
  public init(id: UInt8, fields: [UInt8] = []) {
    payload = [id] + fields
  }

  /// The message ID, or nil for an empty payload.
  public var id: UInt8? { payload.first }

  /// The fields after the message ID.
  public var fields: ArraySlice<UInt8> { payload.dropFirst() }

  /// The 15-bit checksum of a payload.
  public static func checksum(of payload: some Sequence<UInt8>) -> UInt16 {
    UInt16(payload.reduce(0) { ($0 + Int($1)) & 0x7FFF })
  }

  /// The frame as sent on the wire. A payload longer than `maximumPayloadLength` cannot be
  /// framed; only its first bytes up to that length are sent.
  public var bytes: [UInt8] {
    let body = payload.prefix(Self.maximumPayloadLength)
    let checksum = Self.checksum(of: body)
    var bytes = Self.start
    bytes.reserveCapacity(Self.overhead + body.count)
    bytes += [UInt8(body.count >> 8), UInt8(body.count & 0xFF)]
    bytes += body
    bytes += [UInt8(checksum >> 8), UInt8(checksum & 0xFF)]
    return bytes + Self.end
  }

  /// Parses the frame at the start of `bytes`; bytes after it are ignored.
  ///
  /// Fed a growing prefix of a stream, this reports `.truncated` until the whole frame has
  /// arrived, and `.tooLong` as soon as the length field has.
  ///
  /// - Throws: `SiRFError.badStart`, `.truncated`, `.tooLong`, `.badChecksum` or `.badEnd`,
  ///   checked in that order.
  public init(parsing bytes: some Collection<UInt8>) throws(SiRFError) {
    let head = Array(bytes.prefix(4))
    let startFound = Array(head.prefix(2))
    guard startFound == Array(Self.start.prefix(startFound.count)) else {
      throw .badStart(found: startFound)
    }
    guard head.count == 4 else { throw .truncated(found: head.count, needed: Self.overhead) }
    let length = Int(head[2]) << 8 | Int(head[3])
    guard length <= Self.maximumPayloadLength else { throw .tooLong(length) }
    let frame = Array(bytes.prefix(Self.overhead + length))
    guard frame.count == Self.overhead + length else {
      throw .truncated(found: frame.count, needed: Self.overhead + length)
    }
    let payload = Array(frame[4..<(4 + length)])
    let expected = Self.checksum(of: payload)
    let found = UInt16(frame[4 + length]) << 8 | UInt16(frame[5 + length])
    guard found == expected else { throw .badChecksum(expected: expected, found: found) }
    let end = Array(frame[(6 + length)...])
    guard end == Self.end else { throw .badEnd(found: end) }
    self.init(payload: payload)
  }
}

extension SiRFFrame: CustomStringConvertible {
  /// `SiRF MID 2 (41 bytes)`.
  public var description: String {
    "SiRF MID \(id.map { String($0) } ?? "none") (\(payload.count) bytes)"
  }
}
