/// One UBX message as it travels on the wire.
///
///     B5 62 | class | id | length (UInt16, little-endian) | payload | CK_A CK_B
///
/// The checksum (`UBXChecksum`) covers class, ID, length and payload. The frame keeps only
/// class, ID and payload; `bytes` adds the rest.
public struct UBXFrame: Hashable, Sendable {
  /// The two sync characters that start every frame, `µb`.
  public static let sync: [UInt8] = [0xB5, 0x62]
  /// Bytes around the payload: sync, class, ID, length and checksum.
  public static let overhead = 8

  /// The longest payload accepted when parsing.
  ///
  /// The length field allows 65535 bytes, but what a client sends a receiver (polls,
  /// configuration, assistance data) stays far below 4096 bytes; a larger length is taken for
  /// garbage rather than a reason to wait for 64 KiB.
  public static let maximumPayloadLength = 4096

  /// The message class, such as `0x06` for CFG.
  public var messageClass: UInt8
  /// The message ID within its class, such as `0x08` for CFG-RATE.
  public var id: UInt8
  /// The payload, without length or checksum.
  public var payload: [UInt8]

  /// Creates a frame from its class, ID and payload.
  public init(messageClass: UInt8, id: UInt8, payload: [UInt8] = []) {
    self.messageClass = messageClass
    self.id = id
    self.payload = payload
  }

  /// Creates a frame of a known message type.
  public init(_ type: UBXMessageType, payload: [UInt8] = []) {
    self.init(messageClass: type.messageClass, id: type.id, payload: payload)
  }

  /// The class and ID together.
  public var messageType: UBXMessageType { UBXMessageType(messageClass: messageClass, id: id) }

  /// The frame as sent on the wire: sync, class, ID, length, payload and checksum.
  ///
  /// A payload longer than 65535 bytes cannot be framed; only its first 65535 bytes are sent.
  public var bytes: [UInt8] {
    let body = payload.prefix(Int(UInt16.max))
    let length = Self.overhead + body.count
    // Written in place: the frame is one allocation however long its payload.
    return [UInt8](unsafeUninitializedCapacity: length) { frame, count in
      let header = [Self.sync[0], Self.sync[1], messageClass, id]
      for (index, byte) in header.enumerated() { frame[index] = byte }
      frame[4] = UInt8(body.count & 0xFF)
      frame[5] = UInt8(body.count >> 8)
      _ = body.withUnsafeBufferPointer {
        UnsafeMutableBufferPointer(rebasing: frame[6..<length - 2]).initialize(fromContentsOf: $0)
      }
      let checksum = UBXChecksum(over: frame[2..<length - 2])
      frame[length - 2] = checksum.a
      frame[length - 1] = checksum.b
      count = length
    }
  }

  /// Parses the frame at the start of `bytes`; bytes after it are ignored.
  ///
  /// The frame takes `payload.count + UBXFrame.overhead` bytes. Fed a growing prefix of a
  /// stream, this reports `.truncated` until the whole frame has arrived, and `.tooLong` as soon
  /// as the length field has.
  ///
  /// - Throws: `UBXError.badSync`, `.truncated`, `.tooLong` or `.badChecksum`, checked in that
  ///   order.
  public init(parsing bytes: some Collection<UInt8>) throws(UBXError) {
    let head = Array(bytes.prefix(6))
    let syncFound = Array(head.prefix(2))
    guard syncFound == Array(Self.sync.prefix(syncFound.count)) else {
      throw .badSync(found: syncFound)
    }
    guard head.count == 6 else { throw .truncated(found: head.count, needed: Self.overhead) }
    let length = Int(head[4]) | Int(head[5]) << 8
    guard length <= Self.maximumPayloadLength else { throw .tooLong(length) }
    let frame = Array(bytes.prefix(Self.overhead + length))
    guard frame.count == Self.overhead + length else {
      throw .truncated(found: frame.count, needed: Self.overhead + length)
    }
    let expected = UBXChecksum(over: frame[2..<(6 + length)])
    let found = UBXChecksum(a: frame[6 + length], b: frame[7 + length])
    guard found == expected else { throw .badChecksum(expected: expected, found: found) }
    self.init(messageClass: head[2], id: head[3], payload: Array(frame[6..<(6 + length)]))
  }

  /// Two uppercase hexadecimal digits.
  static func hex(_ value: UInt8) -> String {
    let digits: [Character] = Array("0123456789ABCDEF")
    return String([digits[Int(value >> 4)], digits[Int(value & 0x0F)]])
  }
}

extension UBXFrame: CustomStringConvertible {
  /// The message name and payload in hexadecimal: `UBX-CFG-RATE C8 00 01 00 01 00`.
  ///
  /// Payloads past 16 bytes are cut short with `…` and their length.
  public var description: String {
    let name = "UBX-\(messageType)"
    guard !payload.isEmpty else { return name }
    let shown = payload.prefix(16).map(Self.hex).joined(separator: " ")
    return payload.count > 16 ? "\(name) \(shown) … (\(payload.count) bytes)" : "\(name) \(shown)"
  }
}
