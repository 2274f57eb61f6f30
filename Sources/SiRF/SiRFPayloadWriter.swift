/// Writes the fields of a SiRF payload: integers big-endian, as the protocol sends them.
public struct SiRFPayloadWriter: Sendable {
  /// The payload so far.
  public private(set) var bytes: [UInt8]

  /// Starts the payload of message `id`.
  public init(id: UInt8) {
    bytes = [id]
  }

  /// An unsigned value in `byteCount` bytes, most significant first.
  public mutating func unsigned(_ value: UInt64, byteCount: Int) {
    for index in stride(from: byteCount - 1, through: 0, by: -1) {
      bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))))
    }
  }

  public mutating func u1(_ value: UInt8) { bytes.append(value) }

  public mutating func u2(_ value: UInt16) { unsigned(UInt64(value), byteCount: 2) }

  public mutating func u4(_ value: UInt32) { unsigned(UInt64(value), byteCount: 4) }

  public mutating func i2(_ value: Int16) { u2(UInt16(bitPattern: value)) }

  public mutating func i4(_ value: Int32) { u4(UInt32(bitPattern: value)) }

  /// A signed value rounded to whole units of `scale` (a latitude in 1e-7 degrees is
  /// `i4(scaled: latitude, by: 1e7)`), clamped to the field's range; 0 for a value that is not
  /// finite.
  public mutating func i4(scaled value: Double, by scale: Double) {
    i4(Int32(Self.clamped(value * scale, Int32.min, Int32.max)))
  }

  /// As `i4(scaled:by:)` in two bytes.
  public mutating func i2(scaled value: Double, by scale: Double) {
    i2(Int16(Self.clamped(value * scale, Int16.min, Int16.max)))
  }

  /// An unsigned value rounded to whole units of `scale`, clamped to the field's range.
  public mutating func u2(scaled value: Double, by scale: Double) {
    u2(UInt16(Self.clamped(value * scale, UInt16.min, UInt16.max)))
  }

  /// An unsigned value rounded to whole units of `scale`, clamped to the field's range.
  public mutating func u4(scaled value: Double, by scale: Double) {
    u4(UInt32(Self.clamped(value * scale, UInt32.min, UInt32.max)))
  }

  /// An unsigned byte rounded to whole units of `scale`, clamped to 0...255.
  public mutating func u1(scaled value: Double, by scale: Double) {
    u1(UInt8(Self.clamped(value * scale, UInt8.min, UInt8.max)))
  }

  public mutating func zeros(_ count: Int) { bytes += repeatElement(0, count: count) }

  /// Text in ASCII, then a NUL.
  public mutating func nulTerminated(_ text: String) {
    bytes += text.utf8
    bytes.append(0)
  }

  /// The value rounded and clamped into `low...high`; 0 when not finite.
  static func clamped<T: FixedWidthInteger>(_ value: Double, _ low: T, _ high: T) -> Int64 {
    guard value.isFinite else { return 0 }
    let rounded = value.rounded()
    if rounded <= Double(low) { return Int64(low) }
    if rounded >= Double(high) { return Int64(high) }
    return Int64(rounded)
  }

  /// The payload framed.
  public var frame: SiRFFrame { SiRFFrame(payload: bytes) }
}
