import UBX

/// A UBX frame's bytes, edited in place: little-endian fields read and written at payload
/// offsets, and the checksum recomputed at the end.
package struct UBXFrameBytes {
  package private(set) var bytes: [UInt8]

  /// Takes a whole frame whose checksum matches; nil for anything else (a frame recorded with
  /// a bad checksum is replayed as recorded).
  package init?(_ bytes: [UInt8]) {
    guard bytes.count >= UBXFrame.overhead, bytes[0] == 0xB5, bytes[1] == 0x62,
      Int(bytes[4]) | Int(bytes[5]) << 8 == bytes.count - UBXFrame.overhead,
      UBXChecksum(over: bytes[2..<(bytes.count - 2)])
        == UBXChecksum(a: bytes[bytes.count - 2], b: bytes[bytes.count - 1])
    else { return nil }
    self.bytes = bytes
  }

  package var messageClass: UInt8 { bytes[2] }
  package var id: UInt8 { bytes[3] }
  package var payloadCount: Int { bytes.count - UBXFrame.overhead }

  /// True when the payload holds `count` bytes from `offset`.
  package func has(_ offset: Int, _ count: Int) -> Bool {
    offset >= 0 && offset + count <= payloadCount
  }

  func unsigned(at offset: Int, _ count: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in 0..<count { value |= UInt64(bytes[6 + offset + index]) << (8 * index) }
    return value
  }

  mutating func setUnsigned(_ value: UInt64, at offset: Int, _ count: Int) {
    for index in 0..<count {
      bytes[6 + offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index))
    }
  }

  package func u1(_ offset: Int) -> Int64 { Int64(bytes[6 + offset]) }
  package func i1(_ offset: Int) -> Int64 { Int64(Int8(bitPattern: bytes[6 + offset])) }
  package func u2(_ offset: Int) -> Int64 { Int64(unsigned(at: offset, 2)) }
  package func i2(_ offset: Int) -> Int64 {
    Int64(Int16(truncatingIfNeeded: unsigned(at: offset, 2)))
  }
  package func u4(_ offset: Int) -> Int64 { Int64(unsigned(at: offset, 4)) }
  package func i4(_ offset: Int) -> Int64 {
    Int64(Int32(truncatingIfNeeded: unsigned(at: offset, 4)))
  }
  func r8(_ offset: Int) -> Double { Double(bitPattern: unsigned(at: offset, 8)) }

  /// Writes the low `count` bytes of `value` (signed or not) at `offset`.
  package mutating func set(_ offset: Int, _ count: Int, _ value: Int64) {
    setUnsigned(UInt64(bitPattern: value), at: offset, count)
  }

  mutating func setR8(_ offset: Int, _ value: Double) {
    setUnsigned(value.bitPattern, at: offset, 8)
  }

  /// The frame with its checksum recomputed.
  package var finished: [UInt8] {
    var bytes = self.bytes
    let checksum = UBXChecksum(over: bytes[2..<(bytes.count - 2)])
    bytes[bytes.count - 2] = checksum.a
    bytes[bytes.count - 1] = checksum.b
    return bytes
  }
}
