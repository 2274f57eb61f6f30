/// Writes the fields of a UBX payload one after another, little-endian as every UBX number is:
/// `UBXPayloadWriter`, or a run of fields it has made room for (`UBXPayloadWriter.Fields`).
public protocol UBXFieldWriter: ~Copyable {
  /// Appends an unsigned integer of `byteCount` bytes (`U1`, `U2`, `U4`, `X*`), low byte first.
  mutating func unsigned(_ value: UInt64, byteCount: Int)
  /// Appends `count` zero bytes (reserved fields).
  mutating func zeros(_ count: Int)
}

extension UBXFieldWriter where Self: ~Copyable {
  /// Appends `U1`.
  @inline(__always) public mutating func u1(_ value: UInt8) {
    unsigned(UInt64(value), byteCount: 1)
  }
  /// Appends `U2`.
  @inline(__always) public mutating func u2(_ value: UInt16) {
    unsigned(UInt64(value), byteCount: 2)
  }
  /// Appends `U4`.
  @inline(__always) public mutating func u4(_ value: UInt32) {
    unsigned(UInt64(value), byteCount: 4)
  }
  /// Appends `I1`.
  public mutating func i1(_ value: Int8) { u1(UInt8(bitPattern: value)) }
  /// Appends `I2`.
  public mutating func i2(_ value: Int16) { u2(UInt16(bitPattern: value)) }
  /// Appends `I4`.
  public mutating func i4(_ value: Int32) { u4(UInt32(bitPattern: value)) }

  /// Appends `text` as a `CH[width]` field: ASCII, cut at `width`, padded with NUL bytes.
  public mutating func characters(_ text: String, width: Int) {
    let ascii = text.utf8.prefix(width)
    for byte in ascii { u1(byte) }
    zeros(width - ascii.count)
  }
}

/// Builds a UBX payload field by field.
///
/// The bytes go into room made ahead (the capacity given, doubled when it runs out), so that a
/// field is a few stores rather than an append per byte; `fields(byteCount:_:)` writes a run of
/// fields (a repeated block) with one access to the storage.
public struct UBXPayloadWriter: UBXFieldWriter, Sendable {
  /// Room for the payload: its first `count` bytes are written, the rest are zero.
  private var storage: [UInt8]
  /// How many bytes are written.
  private var count = 0

  /// The bytes written so far.
  public var bytes: [UInt8] { count == storage.count ? storage : Array(storage[..<count]) }

  /// Creates an empty writer, with room for `capacity` bytes before it grows.
  public init(capacity: Int = 0) {
    // Reserved, then zeroed: `Array(repeating:count:)` took a generic path costing more than
    // the rest of a small frame.
    storage = []
    storage.reserveCapacity(capacity)
    storage += repeatElement(0, count: max(0, capacity))
  }

  /// Appends `byteCount` bytes, zero but for the fields `write` stores in them, in order, from
  /// the first. `Fields` is valid only within `write`.
  public mutating func fields(byteCount: Int, _ write: (inout Fields) -> Void) {
    precondition(byteCount >= 0, "a field has no negative size")
    let offset = count
    count += byteCount
    if count > storage.count {
      storage += repeatElement(0, count: max(count, 2 * storage.count) - storage.count)
    }
    storage.withUnsafeMutableBytes { buffer in
      var fields = Fields(
        buffer: UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + byteCount]))
      write(&fields)
    }
  }

  public mutating func unsigned(_ value: UInt64, byteCount: Int) {
    fields(byteCount: byteCount) { $0.unsigned(value, byteCount: byteCount) }
  }

  public mutating func zeros(_ count: Int) { fields(byteCount: count) { _ in } }

  /// Room `UBXPayloadWriter.fields(byteCount:_:)` has made, written field by field. Not
  /// copyable, so that it cannot leave the closure it is lent to (its pointer is into the
  /// writer's storage, valid only there).
  public struct Fields: UBXFieldWriter, ~Copyable {
    /// The room, zero where nothing is written.
    private let buffer: UnsafeMutableRawBufferPointer
    /// How many of its bytes the fields so far take.
    private var offset = 0

    fileprivate init(buffer: UnsafeMutableRawBufferPointer) {
      self.buffer = buffer
    }

    // Inlined, so that a field of a known size is a few stores.
    @inline(__always)
    public mutating func unsigned(_ value: UInt64, byteCount: Int) {
      precondition(
        byteCount >= 0 && offset + byteCount <= buffer.count, "a field beyond the room made")
      for index in 0..<min(byteCount, 8) {
        buffer[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index))
      }
      offset += byteCount
    }

    @inline(__always)
    public mutating func zeros(_ count: Int) {
      precondition(count >= 0 && offset + count <= buffer.count, "a field beyond the room made")
      offset += count
    }
  }
}
