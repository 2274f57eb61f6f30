/// Reads the fields of an RTCM 3 payload in order, as `RTCMBitWriter` writes them.
public struct RTCMBitReader: Sendable {
  /// The payload.
  let bytes: [UInt8]
  /// The message number, for errors.
  let message: Int
  /// The next bit to read.
  public private(set) var position = 0

  /// A reader at the start of `bytes`, the payload of message `message`.
  public init(_ bytes: [UInt8], message: Int = 0) {
    self.bytes = bytes
    self.message = message
  }

  /// Bits left to read.
  public var remainingBits: Int { bytes.count * 8 - position }

  /// Reads an unsigned field of `width` bits (at most 64).
  ///
  /// - Throws: `RTCMError.payloadTooShort` when the payload ends first.
  public mutating func unsigned(_ width: Int) throws(RTCMError) -> UInt64 {
    precondition(width >= 0 && width <= 64, "a field has 0 to 64 bits")
    guard width <= remainingBits else {
      throw .payloadTooShort(message: message, bit: position, width: width)
    }
    var value: UInt64 = 0
    var remaining = width
    while remaining > 0 {
      let offset = position % 8
      let taken = min(8 - offset, remaining)
      let byte = UInt64(bytes[position / 8])
      value = value << UInt64(taken) | (byte >> UInt64(8 - offset - taken)) & ((1 << taken) - 1)
      remaining -= taken
      position += taken
    }
    return value
  }

  /// Reads an unsigned field that fits an `Int` (at most 63 bits).
  public mutating func integer(_ width: Int) throws(RTCMError) -> Int {
    Int(try unsigned(width))
  }

  /// Reads a two's complement field of `width` bits.
  public mutating func signed(_ width: Int) throws(RTCMError) -> Int64 {
    let raw = try unsigned(width)
    guard width > 0, width < 64 else { return Int64(bitPattern: raw) }
    let shift = UInt64(64 - width)
    return Int64(bitPattern: raw << shift) >> Int64(shift)
  }

  /// Reads a sign-magnitude field of `width` bits.
  public mutating func signMagnitude(_ width: Int) throws(RTCMError) -> Int64 {
    let negative = try unsigned(1) == 1
    let magnitude = Int64(try unsigned(width - 1))
    return negative ? -magnitude : magnitude
  }

  /// Reads one bit as a flag.
  public mutating func flag() throws(RTCMError) -> Bool {
    try unsigned(1) == 1
  }
}
