/// A field of digits with an optional fraction (`093802`, `123519.00`, `4404.1165102`), read as
/// an integer count of its last digit's unit, and written back in the same shape.
package struct DecimalField: Hashable, Sendable {
  /// The value in units of 10^-decimals.
  package var units: Int64
  /// Digits after the point (0 when there is no point).
  package var decimals: Int
  /// Digits before the point as recorded.
  package var integerDigits: Int
  /// True when the recorded integer part starts with a zero that is not its only digit: the
  /// receiver pads that field to a fixed width, so it is written back padded too.
  package var zeroPadded: Bool

  /// The most digits after the point that are read: nanoseconds.
  static let maximumDecimals = 9

  /// Reads a field of ASCII digits with at most one point that has digits on both sides; nil
  /// for an empty field, a sign, letters, or more than 9 decimals or 18 digits.
  package init?(_ field: ArraySlice<UInt8>) {
    var units: Int64 = 0
    var integerDigits = 0
    var decimals = 0
    var seenPoint = false
    for byte in field {
      if byte == UInt8(ascii: ".") {
        guard !seenPoint, integerDigits > 0 else { return nil }
        seenPoint = true
        continue
      }
      guard (0x30...0x39).contains(byte), integerDigits + decimals < 18 else { return nil }
      units = units * 10 + Int64(byte - 0x30)
      if seenPoint { decimals += 1 } else { integerDigits += 1 }
    }
    guard integerDigits > 0, !seenPoint || decimals > 0, decimals <= Self.maximumDecimals else {
      return nil
    }
    self.units = units
    self.decimals = decimals
    self.integerDigits = integerDigits
    zeroPadded = integerDigits > 1 && field.first == UInt8(ascii: "0")
  }

  /// 10^decimals: how many units make one.
  package var scale: Int64 { Self.powerOfTen(decimals) }

  /// The field with another value in the same shape: as many decimals, and zero-padded to the
  /// recorded width if it was.
  package func written(units newUnits: Int64, minimumIntegerDigits: Int = 1) -> [UInt8] {
    let magnitude = newUnits.magnitude
    let scale = UInt64(self.scale)
    let width = max(zeroPadded ? integerDigits : 1, minimumIntegerDigits)
    var bytes: [UInt8] = newUnits < 0 ? [UInt8(ascii: "-")] : []
    bytes += Self.digits(magnitude / scale, width: width)
    if decimals > 0 {
      bytes.append(UInt8(ascii: "."))
      bytes += Self.digits(magnitude % scale, width: decimals)
    }
    return bytes
  }

  /// The decimal digits of `value`, zero-padded to at least `width`.
  static func digits(_ value: UInt64, width: Int) -> [UInt8] {
    var reversed: [UInt8] = []
    var rest = value
    repeat {
      reversed.append(UInt8(rest % 10) + 0x30)
      rest /= 10
    } while rest > 0
    while reversed.count < width { reversed.append(0x30) }
    return reversed.reversed()
  }

  /// 10^exponent for 0...18.
  static func powerOfTen(_ exponent: Int) -> Int64 {
    var result: Int64 = 1
    for _ in 0..<exponent { result *= 10 }
    return result
  }
}
