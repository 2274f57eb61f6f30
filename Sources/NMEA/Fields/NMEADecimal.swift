/// A decimal number as NMEA writes it, keeping its exact text form.
///
/// Receivers differ in how many digits they print (`0.9`, `0.90`, `00.9`); a value that remembers
/// its digits re-encodes to the same text, and an encoder chooses the digits it emits.
public struct NMEADecimal: Hashable, Sendable, CustomStringConvertible {
  /// True for a leading minus sign.
  public var isNegative: Bool
  /// True for a leading plus sign, as in ZDA's local zone `+00`.
  public var hasPlusSign = false
  /// All the digits as one integer: `12.34` is 1234.
  public var scaled: UInt64
  /// Digits after the decimal point, or nil when the text has no point.
  public var fractionDigits: Int?
  /// Digits before the point, with leading zeros: `0545.4` has 4.
  public var integerDigits: Int

  /// Creates a value from its parts.
  public init(
    scaled: UInt64, fractionDigits: Int?, integerDigits: Int = 1, isNegative: Bool = false
  ) {
    self.scaled = scaled
    self.fractionDigits = fractionDigits
    self.integerDigits = integerDigits
    self.isNegative = isNegative && scaled != 0
  }

  /// Rounds a number to the given digits after the point (none when `fractionDigits` is 0 and
  /// `point` is false).
  public init(_ value: Double, fractionDigits: Int, integerDigits: Int = 1) {
    let scale = Self.powerOfTen(fractionDigits)
    let magnitude = (value.magnitude * scale).rounded()
    self.init(
      scaled: magnitude.isFinite && magnitude < 1.8e19 ? UInt64(magnitude) : 0,
      fractionDigits: fractionDigits > 0 ? fractionDigits : nil,
      integerDigits: integerDigits,
      isNegative: value < 0)
  }

  /// An integer, zero-padded to `width` digits.
  public init(integer: Int, width: Int = 1) {
    self.init(
      scaled: UInt64(integer.magnitude), fractionDigits: nil, integerDigits: width,
      isNegative: integer < 0)
  }

  /// Parses the text of one field: an optional `-`, digits, and an optional point with digits.
  public init?(_ text: some StringProtocol) {
    var utf8 = Substring(text).utf8[...]
    let negative = utf8.first == UInt8(ascii: "-")
    let plus = utf8.first == UInt8(ascii: "+")
    if negative || plus { utf8 = utf8.dropFirst() }
    var scaled: UInt64 = 0
    var integerDigits = 0
    var fractionDigits: Int?
    for byte in utf8 {
      if byte == UInt8(ascii: ".") {
        guard fractionDigits == nil else { return nil }
        fractionDigits = 0
        continue
      }
      guard (0x30...0x39).contains(byte) else { return nil }
      let (times10, overflow1) = scaled.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - 0x30))
      guard !overflow1, !overflow2 else { return nil }
      scaled = sum
      if let digits = fractionDigits { fractionDigits = digits + 1 } else { integerDigits += 1 }
    }
    guard integerDigits + (fractionDigits ?? 0) > 0 else { return nil }
    self.init(
      scaled: scaled, fractionDigits: fractionDigits, integerDigits: integerDigits,
      isNegative: negative)
    self.isNegative = negative
    self.hasPlusSign = plus
  }

  /// The value as a floating-point number.
  public var doubleValue: Double {
    let magnitude = Double(scaled) / Self.powerOfTen(fractionDigits ?? 0)
    return isNegative ? -magnitude : magnitude
  }

  /// The value as an integer when it has no fractional part.
  public var integerValue: Int? {
    let divisor = UInt64(Self.powerOfTen(fractionDigits ?? 0))
    guard scaled % divisor == 0, let magnitude = Int(exactly: scaled / divisor) else { return nil }
    return isNegative ? -magnitude : magnitude
  }

  /// The text as NMEA writes it: the sign, the digits zero-padded to `integerDigits` before
  /// the point, and the point with `fractionDigits` after it. Written right to left into the
  /// string's own storage, without intermediate strings.
  public var description: String {
    let length = textLength
    return String(unsafeUninitializedCapacity: length) { text in
      writeText(into: UnsafeMutableBufferPointer(rebasing: text[..<length]))
      return length
    }
  }

  /// The number of bytes of `description`.
  var textLength: Int {
    let fraction = max(0, fractionDigits ?? 0)
    let width = max(Self.digitCount(scaled), integerDigits + fraction)
    let hasSign = isNegative || hasPlusSign
    return (hasSign ? 1 : 0) + width + (fractionDigits == nil ? 0 : 1)
  }

  /// Writes `description` into `text`, which holds exactly `textLength` bytes, right to left:
  /// the fraction's digits, the point, then the whole part's digits down to the sign.
  func writeText(into text: UnsafeMutableBufferPointer<UInt8>) {
    var end = text.count
    var rest = scaled
    /// Writes the last `count` digits of `rest` before `end`, two for each division.
    func putDigits(_ count: Int) {
      var left = count
      while left >= 2 {
        let pair = 2 * Int(truncatingIfNeeded: rest % 100)
        rest /= 100
        end -= 2
        text[end] = Self.digitPairs.utf8Start[pair]
        text[end + 1] = Self.digitPairs.utf8Start[pair + 1]
        left -= 2
      }
      if left == 1 {
        end -= 1
        text[end] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
      }
    }
    if let fractionDigits {
      putDigits(fractionDigits)
      end -= 1
      text[end] = UInt8(ascii: ".")
    }
    let signLength = isNegative || hasPlusSign ? 1 : 0
    putDigits(end - signLength)
    if signLength == 1 { text[0] = isNegative ? UInt8(ascii: "-") : UInt8(ascii: "+") }
  }

  /// The two digits of each number from 00 to 99, in order.
  private static let digitPairs: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

  /// How many decimal digits `value` has (1 for zero).
  ///
  /// From its bit length: a number of `n` bits has `⌊n·log₁₀2⌋` digits, or one more when it
  /// reaches the next power of ten (1233/4096 is log₁₀2 close enough for 64 bits), without a
  /// division per digit.
  static func digitCount(_ value: UInt64) -> Int {
    let bitLength = UInt64.bitWidth - (value | 1).leadingZeroBitCount
    let fewest = (bitLength * 1233) >> 12
    return (value | 1) >= powersOfTen[fewest] ? fewest + 1 : fewest
  }

  /// 10⁰ to 10¹⁹, the powers of ten a `UInt64` holds: written out, so that the array is laid
  /// out by the compiler rather than built at its first use behind a lazy initializer's check.
  private static let powersOfTen: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
    10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000,
    100_000_000_000_000, 1_000_000_000_000_000, 10_000_000_000_000_000,
    100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
  ]
}
