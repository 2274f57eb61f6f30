import Simulation

/// One of the thirteen `Label: value` lines of a YUMA almanac block, with the range its value
/// must fall in.
enum YUMAField: Int, CaseIterable, Sendable {
  case id, health, eccentricity, timeOfApplicability, inclination, rateOfRightAscension
  case squareRootOfSemiMajorAxis, rightAscensionAtWeek, argumentOfPerigee, meanAnomaly
  case clockBias, clockDrift, week

  /// The label as NAVCEN's files write it, used in messages.
  var label: String {
    switch self {
    case .id: return "ID"
    case .health: return "Health"
    case .eccentricity: return "Eccentricity"
    case .timeOfApplicability: return "Time of Applicability(s)"
    case .inclination: return "Orbital Inclination(rad)"
    case .rateOfRightAscension: return "Rate of Right Ascen(r/s)"
    case .squareRootOfSemiMajorAxis: return "SQRT(A)"
    case .rightAscensionAtWeek: return "Right Ascen at Week(rad)"
    case .argumentOfPerigee: return "Argument of Perigee(rad)"
    case .meanAnomaly: return "Mean Anom(rad)"
    case .clockBias: return "Af0(s)"
    case .clockDrift: return "Af1(s/s)"
    case .week: return "week"
    }
  }

  /// The start of the label, lowercased and without spaces, that identifies the field.
  private var key: String {
    switch self {
    case .id: return "id"
    case .health: return "health"
    case .eccentricity: return "eccentricity"
    case .timeOfApplicability: return "timeofapplicability"
    case .inclination: return "orbitalinclination"
    case .rateOfRightAscension: return "rateofrightascen"
    case .squareRootOfSemiMajorAxis: return "sqrt(a)"
    case .rightAscensionAtWeek: return "rightascenatweek"
    case .argumentOfPerigee: return "argumentofperigee"
    case .meanAnomaly: return "meananom"
    case .clockBias: return "af0"
    case .clockDrift: return "af1"
    case .week: return "week"
    }
  }

  /// The field a label names, whatever its case, spacing and unit suffix.
  init?(label: some StringProtocol) {
    let squeezed = String(label.lowercased().filter { $0 != " " && $0 != "\t" })
    guard let field = Self.allCases.first(where: { squeezed.hasPrefix($0.key) }) else {
      return nil
    }
    self = field
  }

  /// Whether a value must be a whole number.
  var isInteger: Bool { self == .id || self == .health || self == .week }

  /// The values accepted, and how a message names them.
  var accepted: (range: ClosedRange<Double>, expectation: String) {
    let angle = 2 * Double.pi
    switch self {
    case .id: return (1...32, "a whole number from 1 to 32 (a GPS PRN)")
    case .health: return (0...255, "a whole number from 0 to 255")
    case .eccentricity: return (0...0.999_999, "a number from 0 to 1")
    case .timeOfApplicability: return (0...604_799, "seconds from 0 to 604799 into the week")
    case .inclination: return (0...Double.pi, "an angle in radians from 0 to π")
    case .rateOfRightAscension: return (-1e-3...1e-3, "radians per second from -0.001 to 0.001")
    case .squareRootOfSemiMajorAxis: return (1000...10000, "a number from 1000 to 10000 (√m)")
    case .rightAscensionAtWeek, .argumentOfPerigee, .meanAnomaly:
      return (-angle...angle, "an angle in radians from -2π to 2π")
    case .clockBias: return (-1...1, "seconds from -1 to 1")
    case .clockDrift: return (-1e-3...1e-3, "seconds per second from -0.001 to 0.001")
    case .week: return (0...1023, "a whole number from 0 to 1023 (the week modulo 1024)")
    }
  }

  /// `text` without the zeros YUMA pads its whole numbers with (`ID: 01`, `Health: 000`): the
  /// format's layout, as the spaces after the colon are, not part of the number's spelling.
  static func unpadded(_ text: some StringProtocol) -> Substring {
    var digits = Substring(text).drop { $0 == " " || $0 == "\t" }
    while digits.first == "0", let next = digits.dropFirst().first, next.isASCII, next.isNumber {
      digits = digits.dropFirst()
    }
    return digits
  }

  /// The value of `text` for this field, or the message saying what was expected.
  func value(of text: some StringProtocol) -> Result<Double, YUMAFieldError> {
    let (range, expectation) = accepted
    guard let value = RouteText.number(isInteger ? Self.unpadded(text) : Substring(text)),
      range.contains(value),
      !isInteger || value == value.rounded()
    else {
      return .failure(
        YUMAFieldError(
          message: "'\(label)' must be \(expectation), found \(RouteText.quoted(text))"))
    }
    return .success(value)
  }
}

/// Why a YUMA value was refused: a one-line message naming the field.
struct YUMAFieldError: Error {
  let message: String
}

/// The heading line of a YUMA block, `******** Week 149 almanac for PRN-01 ********`, and the
/// PRN it names.
struct YUMABlockHeading {
  let prn: Int?

  init?(_ line: some StringProtocol) {
    guard line.hasPrefix("*") else { return nil }
    let text = line.lowercased()
    guard let range = text.firstRange(of: "almanac for prn") else {
      return nil
    }
    let digits = text[range.upperBound...].drop(while: { $0 == "-" || $0 == " " })
      .prefix(while: \.isNumber)
    prn = Int(digits)
  }
}

extension AlmanacEntry {
  /// An entry from the thirteen values of a YUMA block, in `YUMAField` order.
  init(yuma values: [Double]) {
    func value(_ field: YUMAField) -> Double { values[field.rawValue] }
    self.init(
      prn: Int(value(.id)), health: Int(value(.health)), eccentricity: value(.eccentricity),
      timeOfApplicabilitySeconds: value(.timeOfApplicability), week: Int(value(.week)),
      inclinationRadians: value(.inclination),
      rateOfRightAscensionRadiansPerSecond: value(.rateOfRightAscension),
      squareRootOfSemiMajorAxis: value(.squareRootOfSemiMajorAxis),
      rightAscensionAtWeekRadians: value(.rightAscensionAtWeek),
      argumentOfPerigeeRadians: value(.argumentOfPerigee),
      meanAnomalyRadians: value(.meanAnomaly), clockBiasSeconds: value(.clockBias),
      clockDriftSecondsPerSecond: value(.clockDrift))
  }
}
