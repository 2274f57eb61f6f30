/// The UBX checksum: the 8-bit Fletcher algorithm (RFC 1145) over class, ID, length and payload.
///
/// Both bytes follow the payload, `a` first. u-blox documents it in every receiver description
/// ("UBX checksum").
public struct UBXChecksum: Hashable, Sendable, CustomStringConvertible {
  /// The running sum of the bytes, modulo 256 (`CK_A`).
  public var a: UInt8
  /// The running sum of the values of `a`, modulo 256 (`CK_B`).
  public var b: UInt8

  /// Creates a checksum from its two bytes.
  public init(a: UInt8, b: UInt8) {
    self.a = a
    self.b = b
  }

  /// Computes the checksum of `bytes`, which run from the class byte to the end of the payload.
  ///
  /// Inlinable so that Wire's packet splitter, which checks every frame a passed-through
  /// receiver sends, gets it specialized for its byte slices.
  @inlinable public init(over bytes: some Sequence<UInt8>) {
    var a: UInt8 = 0
    var b: UInt8 = 0
    for byte in bytes {
      a &+= byte
      b &+= a
    }
    self.init(a: a, b: b)
  }

  /// Both bytes in hexadecimal, as a frame carries them: `0E 34`.
  public var description: String { "\(UBXFrame.hex(a)) \(UBXFrame.hex(b))" }
}
