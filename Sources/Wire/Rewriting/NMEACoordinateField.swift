/// A latitude or longitude as NMEA writes it: `ddmm.mmmm` or `dddmm.mmmm` and a hemisphere
/// letter, in the recorded number of degree digits and decimals of minutes.
struct NMEACoordinateField {
  /// Degrees, negative south and west.
  var degrees: Double
  private let shape: DecimalField
  private let isLatitude: Bool
  /// True when the hemisphere was written in lower case (`n`, `e`).
  private let lowercaseHemisphere: Bool

  /// Reads a coordinate and its hemisphere letter (`N`/`S` for a latitude, `E`/`W` for a
  /// longitude, in either case); nil when either is malformed or out of range.
  init?(value: ArraySlice<UInt8>, hemisphere: ArraySlice<UInt8>, isLatitude: Bool) {
    guard let shape = DecimalField(value), shape.integerDigits >= 3, hemisphere.count == 1,
      let recorded = hemisphere.first
    else { return nil }
    let letter = recorded & ~0x20
    let (positive, negative) = isLatitude ? (UInt8(ascii: "N"), UInt8(ascii: "S")) : (69, 87)
    guard letter == positive || letter == negative else { return nil }
    let whole = shape.units / shape.scale
    let minutes = Double(whole % 100) + Double(shape.units % shape.scale) / Double(shape.scale)
    let magnitude = Double(whole / 100) + minutes / 60
    guard whole % 100 < 60, magnitude <= (isLatitude ? 90 : 180) else { return nil }
    self.degrees = letter == negative ? -magnitude : magnitude
    self.shape = shape
    self.isLatitude = isLatitude
    lowercaseHemisphere = recorded != letter
  }

  /// The value and hemisphere fields for `degrees`, rounded to the recorded decimals of
  /// minutes, with the recorded number of degree digits.
  ///
  /// The hemisphere keeps its recorded case, but `S` and `W` are always written in upper case:
  /// gpsd 3.22 (`do_lat_lon`) takes only those as south and west, and any other letter as
  /// north or east.
  func written(degrees newDegrees: Double) -> (value: [UInt8], hemisphere: [UInt8]) {
    let scale = shape.scale
    let minuteUnits = Int64((newDegrees.magnitude * 60 * Double(scale)).rounded())
    let (wholeDegrees, rest) = (minuteUnits / (60 * scale), minuteUnits % (60 * scale))
    let units = (wholeDegrees * 100) * scale + rest
    var fixed = shape
    fixed.zeroPadded = true
    let value = fixed.written(units: units, minimumIntegerDigits: shape.integerDigits)
    let south = newDegrees < 0 && minuteUnits > 0
    let letter: UInt8 =
      isLatitude
      ? (south ? UInt8(ascii: "S") : UInt8(ascii: "N"))
      : (south ? UInt8(ascii: "W") : UInt8(ascii: "E"))
    return (value, [lowercaseHemisphere && !south ? letter | 0x20 : letter])
  }
}
