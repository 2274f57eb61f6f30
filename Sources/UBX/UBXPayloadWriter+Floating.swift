/// The floating-point fields of UBX payloads: IEEE 754, little-endian.
extension UBXFieldWriter where Self: ~Copyable {
  /// Appends `R4`.
  @inline(__always) public mutating func r4(_ value: Float) { u4(value.bitPattern) }
  /// Appends `R8`.
  @inline(__always) public mutating func r8(_ value: Double) {
    unsigned(value.bitPattern, byteCount: 8)
  }
}
