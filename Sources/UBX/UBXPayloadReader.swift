/// Reads the fields of a UBX payload in order; each read returns nil once the payload ends.
public struct UBXPayloadReader: Sendable {
  /// The payload.
  public let bytes: [UInt8]
  /// Where the next field starts.
  public private(set) var offset = 0

  /// Creates a reader at the start of `bytes`.
  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Bytes not read yet.
  public var remainingCount: Int { bytes.count - offset }

  /// Reads an unsigned little-endian integer of `byteCount` bytes.
  public mutating func unsigned(byteCount: Int) -> UInt64? {
    guard byteCount >= 0, remainingCount >= byteCount else { return nil }
    var value: UInt64 = 0
    for index in 0..<byteCount { value |= UInt64(bytes[offset + index]) << (8 * index) }
    offset += byteCount
    return value
  }

  /// Reads `U1`.
  public mutating func u1() -> UInt8? { unsigned(byteCount: 1).map { UInt8($0) } }
  /// Reads `U2`.
  public mutating func u2() -> UInt16? { unsigned(byteCount: 2).map { UInt16($0) } }
  /// Reads `U4`.
  public mutating func u4() -> UInt32? { unsigned(byteCount: 4).map { UInt32($0) } }
  /// Reads `I2`.
  public mutating func i2() -> Int16? { u2().map { Int16(bitPattern: $0) } }
  /// Reads `I4`.
  public mutating func i4() -> Int32? { u4().map { Int32(bitPattern: $0) } }

  /// Reads a `CH[width]` field up to its first NUL byte.
  public mutating func characters(width: Int) -> String? {
    guard width >= 0, remainingCount >= width else { return nil }
    let field = bytes[offset..<(offset + width)].prefix { $0 != 0 }
    offset += width
    return String(decoding: field, as: UTF8.self)
  }
}
