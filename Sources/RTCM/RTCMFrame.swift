import GNSSMeasurements

/// One RTCM 3 transport frame (RTCM 10403.3, 4): the preamble 0xD3, six reserved bits (zero),
/// a 10-bit payload length, the payload and its CRC-24Q.
///
///     D3 | 000000 llllllllll | payload (0–1023 bytes) | CRC-24Q (3 bytes)
public struct RTCMFrame: Hashable, Sendable {
  /// The preamble that starts every frame.
  public static let preamble: UInt8 = 0xD3
  /// The largest payload a 10-bit length can announce.
  public static let maximumPayloadLength = 1023
  /// The preamble and length (3 bytes) plus the CRC (3 bytes).
  public static let overhead = 6

  /// The payload.
  public var payload: [UInt8]

  /// A frame around `payload` (at most `maximumPayloadLength` bytes).
  public init(payload: [UInt8]) {
    precondition(payload.count <= Self.maximumPayloadLength, "an RTCM 3 payload has 1023 bytes")
    self.payload = payload
  }

  /// The message number (DF002, the payload's first 12 bits), nil for a payload too short.
  public var messageNumber: Int? {
    payload.count < 2 ? nil : Self.messageNumber(ofPayload: payload[...])
  }

  /// The first 12 bits of a payload of at least two bytes.
  static func messageNumber(ofPayload payload: ArraySlice<UInt8>) -> Int {
    let start = payload.startIndex
    return Int(payload[start]) << 4 | Int(payload[start + 1]) >> 4
  }

  /// The frame's bytes, CRC included.
  public var bytes: [UInt8] {
    var bytes = [Self.preamble, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    bytes += payload
    let crc = CRC24Q.checksum(bytes)
    bytes += [UInt8(crc >> 16), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
    return bytes
  }

  /// The payload length a frame header announces, nil when the bytes cannot start a frame
  /// (no preamble, or reserved bits set).
  static func announcedLength(_ header: some Collection<UInt8>) -> Int? {
    var bytes = header.makeIterator()
    guard bytes.next() == preamble, let high = bytes.next(), high & 0xFC == 0,
      let low = bytes.next()
    else { return nil }
    return Int(high) << 8 | Int(low)
  }

  /// Parses the frame at the start of `bytes` (bytes after it are ignored).
  ///
  /// - Throws: `RTCMError.badPreamble` (reserved bits set count as a bad preamble),
  ///   `.truncated` when the frame needs more bytes, `.badChecksum`.
  public init(parsing bytes: some Collection<UInt8>) throws(RTCMError) {
    let array = Array(bytes.prefix(Self.maximumPayloadLength + Self.overhead))
    guard let first = array.first else { throw .truncated(found: 0, needed: 3) }
    guard array.count >= 3 else {
      if first != Self.preamble { throw .badPreamble(first) }
      throw .truncated(found: array.count, needed: 3)
    }
    guard let length = Self.announcedLength(array) else { throw .badPreamble(first) }
    let needed = length + Self.overhead
    guard array.count >= needed else { throw .truncated(found: array.count, needed: needed) }
    let computed = CRC24Q.checksum(array[0..<(3 + length)])
    let carried =
      UInt32(array[3 + length]) << 16 | UInt32(array[4 + length]) << 8 | UInt32(array[5 + length])
    guard computed == carried else { throw .badChecksum(expected: computed, found: carried) }
    payload = Array(array[3..<(3 + length)])
  }
}
