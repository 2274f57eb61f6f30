/// A latitude (`ddmm.mmmm,N`) or longitude (`dddmm.mmmm,E`) as NMEA writes it: whole degrees,
/// decimal minutes and a hemisphere letter.
public struct NMEACoordinate: Hashable, Sendable, CustomStringConvertible {
  /// Which of the two angles this is; it fixes the degree digits and the hemisphere letters.
  public enum Axis: Sendable {
    case latitude, longitude

    /// Zero-padded digits of whole degrees: 2 for latitude, 3 for longitude.
    public var degreeDigits: Int { self == .latitude ? 2 : 3 }
    /// The largest magnitude in degrees.
    public var limit: Double { self == .latitude ? 90 : 180 }
    /// The letters for positive and negative values.
    public var hemispheres: (positive: Character, negative: Character) {
      self == .latitude ? ("N", "S") : ("E", "W")
    }
    /// The letters of `hemispheres` as the bytes they are written as.
    var hemisphereLetters: (positive: UInt8, negative: UInt8) {
      self == .latitude
        ? (UInt8(ascii: "N"), UInt8(ascii: "S")) : (UInt8(ascii: "E"), UInt8(ascii: "W"))
    }
  }

  /// Whole degrees, without sign.
  public var degrees: Int
  /// Decimal minutes, 0 to less than 60.
  public var minutes: NMEADecimal
  /// `N`, `S`, `E` or `W`.
  ///
  /// An ASCII letter (setting any other character traps).
  public var hemisphere: Character {
    get { Character(Unicode.Scalar(hemisphereLetter)) }
    set { hemisphereLetter = Self.asciiLetter(newValue) }
  }
  /// The hemisphere's letter as the byte it is written as: a `Character` is a string, which each
  /// copy of a coordinate would retain and release.
  var hemisphereLetter: UInt8
  /// Digits used for the whole degrees (normally 2 for latitude, 3 for longitude).
  public var degreeDigits: Int

  /// Creates a coordinate from its parts.
  public init(degrees: Int, minutes: NMEADecimal, hemisphere: Character, degreeDigits: Int) {
    self.init(
      degrees: degrees, minutes: minutes, hemisphereLetter: Self.asciiLetter(hemisphere),
      degreeDigits: degreeDigits)
  }

  init(degrees: Int, minutes: NMEADecimal, hemisphereLetter: UInt8, degreeDigits: Int) {
    self.degrees = degrees
    self.minutes = minutes
    self.hemisphereLetter = hemisphereLetter
    self.degreeDigits = degreeDigits
  }

  /// The byte of an ASCII letter; traps on any other character.
  private static func asciiLetter(_ letter: Character) -> UInt8 {
    guard let byte = letter.asciiValue else {
      preconditionFailure("hemisphere '\(letter)' is not an ASCII letter")
    }
    return byte
  }

  /// Encodes signed decimal degrees with `fractionDigits` digits of minutes.
  ///
  /// Rounding is done on the total minutes, so 59.999996' becomes the next whole degree and never
  /// `60.00000`.
  public init(degrees value: Double, axis: Axis, fractionDigits: Int) {
    let scale = NMEADecimal.powerOfTen(fractionDigits)
    let totalMinutes = UInt64((value.magnitude * 60 * scale).rounded())
    let perDegree = UInt64(60 * scale)
    self.init(
      degrees: Int(totalMinutes / perDegree),
      minutes: NMEADecimal(
        scaled: totalMinutes % perDegree, fractionDigits: fractionDigits > 0 ? fractionDigits : nil,
        integerDigits: 2),
      hemisphereLetter: value < 0
        ? axis.hemisphereLetters.negative : axis.hemisphereLetters.positive,
      degreeDigits: axis.degreeDigits)
  }

  /// Parses the value field and the hemisphere field.
  ///
  /// Returns nil when the text does not fit `d…dmm[.m…]` with a hemisphere letter of the axis.
  /// Out-of-range values that receivers send as placeholders before a fix (`8960.0000,N`,
  /// `36000.0000,N`) are kept as written; `isInRange` tells them apart.
  public init?(value: some StringProtocol, hemisphere: some StringProtocol, axis: Axis) {
    let text = String(value)
    guard let letter = hemisphere.first, hemisphere.count == 1,
      letter == axis.hemispheres.positive || letter == axis.hemispheres.negative
    else { return nil }
    let pointOffset = text.firstIndex(of: ".").map { text.distance(from: text.startIndex, to: $0) }
    let integerLength = pointOffset ?? text.count
    guard integerLength >= 3 else { return nil }
    let split = text.index(text.startIndex, offsetBy: integerLength - 2)
    guard let whole = Int(text[..<split]), !text.hasPrefix("-"), !text.hasPrefix("+"),
      let minutes = NMEADecimal(text[split...]), !minutes.isNegative, !minutes.hasPlusSign
    else { return nil }
    self.init(
      degrees: whole, minutes: minutes, hemisphere: letter, degreeDigits: integerLength - 2)
  }

  /// True when the minutes are below 60 and the angle within ±90° (latitude) or ±180°.
  public var isInRange: Bool {
    let isLatitude = hemisphereLetter == UInt8(ascii: "N") || hemisphereLetter == UInt8(ascii: "S")
    let axis: Axis = isLatitude ? .latitude : .longitude
    return minutes.doubleValue < 60 && degreesValue.magnitude <= axis.limit
  }

  /// Signed decimal degrees: negative south and west.
  public var degreesValue: Double {
    let magnitude = Double(degrees) + minutes.doubleValue / 60
    let isNegative =
      hemisphereLetter == UInt8(ascii: "S") || hemisphereLetter == UInt8(ascii: "W")
    return isNegative ? -magnitude : magnitude
  }

  /// The value field, `ddmm.mmmm` or `dddmm.mmmm`.
  public var valueText: String { SentenceWriter.text(writeValue(to:)) }

  /// Writes the value field: the whole degrees zero-padded to `degreeDigits`, then the minutes.
  func writeValue(to writer: inout SentenceWriter) {
    let whole = NMEADecimal(integer: degrees)
    for _ in 0..<max(0, degreeDigits - whole.textLength) { writer.append(ascii: UInt8(ascii: "0")) }
    writer.append(whole)
    writer.append(minutes)
  }

  /// Both fields joined by a comma.
  public var description: String { "\(valueText),\(hemisphere)" }
}
