/// Reads the fields of a SiRF payload in order: integers big-endian. Each read returns nil
/// past the end, so that a short payload is an error for its caller to name, never a trap.
public struct SiRFPayloadReader: Sendable {
  private let bytes: [UInt8]
  /// The index of the next byte.
  public private(set) var offset: Int

  /// Reads `bytes` from `offset`.
  public init(_ bytes: some Collection<UInt8>, offset: Int = 0) {
    self.bytes = Array(bytes)
    self.offset = offset
  }

  /// An unsigned value in `byteCount` bytes, most significant first.
  public mutating func unsigned(byteCount: Int) -> UInt64? {
    guard offset >= 0, byteCount >= 0, offset + byteCount <= bytes.count else { return nil }
    defer { offset += byteCount }
    return bytes[offset..<(offset + byteCount)].reduce(0) { $0 << 8 | UInt64($1) }
  }

  public mutating func u1() -> UInt8? { unsigned(byteCount: 1).map { UInt8($0) } }

  public mutating func u2() -> UInt16? { unsigned(byteCount: 2).map { UInt16($0) } }

  public mutating func u4() -> UInt32? { unsigned(byteCount: 4).map { UInt32($0) } }

  public mutating func i4() -> Int32? { u4().map { Int32(bitPattern: $0) } }

  /// Skips `count` bytes; false when fewer are left.
  public mutating func skip(_ count: Int) -> Bool {
    guard count >= 0, offset + count <= bytes.count else { return false }
    offset += count
    return true
  }
}
