import GNSSMeasurements

/// A GPS satellite's broadcast ephemeris and clock, message 1019 (RTCM 10403.3, 3.5.11): the
/// LNAV subframes 1–3 in one message, what RTKLIB needs beside the observations to solve.
///
/// The values are kept by field, in SI units (radians for angles, which travel as
/// semicircles); one table, `layout`, gives the wire order and format for encoding and
/// decoding alike.
public struct GPSEphemerisMessage: Hashable, Sendable {
  /// The message number.
  public static let messageNumber = 1019

  /// A field of the message.
  public enum Field: Hashable, Sendable, CaseIterable {
    /// Identity and status: PRN (DF009), week modulo 1024 (DF076), URA index (DF077), code on
    /// L2 (DF078), IODE (DF071), IODC (DF085), health (DF102, 0 when healthy), L2 P data flag
    /// (DF103), fit interval (DF137, 0 for four hours).
    case prn, week, accuracyIndex, codeOnL2, issueOfDataEphemeris, issueOfDataClock, health
    case l2PDataFlag, fitInterval
    /// Clock: toc (DF081, s of week), af0 (DF084, s), af1 (DF083, s/s), af2 (DF082, s/s²),
    /// T_GD (DF101, s).
    case clockReferenceSeconds, clockBias, clockDrift, clockDriftRate, groupDelay
    /// Orbit: toe (DF093, s of week), √A (DF092, √m), e (DF090), M₀ (DF088), Ω₀ (DF095),
    /// i₀ (DF097), ω (DF099) in radians, Δn (DF087), Ω̇ (DF100), IDOT (DF079) in rad/s.
    case ephemerisReferenceSeconds, squareRootOfSemiMajorAxis, eccentricity, meanAnomaly
    case rightAscension, inclination, argumentOfPerigee, meanMotionDifference
    case rightAscensionRate, inclinationRate
    /// Harmonic corrections: C_rs (DF086), C_rc (DF098) in meters, C_uc (DF089), C_us (DF091),
    /// C_ic (DF094), C_is (DF096) in radians.
    case sineRadius, cosineRadius, cosineLatitude, sineLatitude, cosineInclination
    case sineInclination
  }

  /// How a field travels: its width, whether it is signed, its unit, and whether the value is
  /// an angle (radians here, semicircles on the wire).
  struct Format: Sendable {
    var field: Field
    var width: Int
    var signed = true
    var unit = 1.0
    var semicircles = false
  }

  /// The fields after the message number, in wire order (476 bits).
  static let layout: [Format] = [
    Format(field: .prn, width: 6, signed: false), Format(field: .week, width: 10, signed: false),
    Format(field: .accuracyIndex, width: 4, signed: false),
    Format(field: .codeOnL2, width: 2, signed: false),
    Format(field: .inclinationRate, width: 14, unit: 0x1p-43, semicircles: true),
    Format(field: .issueOfDataEphemeris, width: 8, signed: false),
    Format(field: .clockReferenceSeconds, width: 16, signed: false, unit: 16),
    Format(field: .clockDriftRate, width: 8, unit: 0x1p-55),
    Format(field: .clockDrift, width: 16, unit: 0x1p-43),
    Format(field: .clockBias, width: 22, unit: 0x1p-31),
    Format(field: .issueOfDataClock, width: 10, signed: false),
    Format(field: .sineRadius, width: 16, unit: 0x1p-5),
    Format(field: .meanMotionDifference, width: 16, unit: 0x1p-43, semicircles: true),
    Format(field: .meanAnomaly, width: 32, unit: 0x1p-31, semicircles: true),
    Format(field: .cosineLatitude, width: 16, unit: 0x1p-29),
    Format(field: .eccentricity, width: 32, signed: false, unit: 0x1p-33),
    Format(field: .sineLatitude, width: 16, unit: 0x1p-29),
    Format(field: .squareRootOfSemiMajorAxis, width: 32, signed: false, unit: 0x1p-19),
    Format(field: .ephemerisReferenceSeconds, width: 16, signed: false, unit: 16),
    Format(field: .cosineInclination, width: 16, unit: 0x1p-29),
    Format(field: .rightAscension, width: 32, unit: 0x1p-31, semicircles: true),
    Format(field: .sineInclination, width: 16, unit: 0x1p-29),
    Format(field: .inclination, width: 32, unit: 0x1p-31, semicircles: true),
    Format(field: .cosineRadius, width: 16, unit: 0x1p-5),
    Format(field: .argumentOfPerigee, width: 32, unit: 0x1p-31, semicircles: true),
    Format(field: .rightAscensionRate, width: 24, unit: 0x1p-43, semicircles: true),
    Format(field: .groupDelay, width: 8, unit: 0x1p-31),
    Format(field: .health, width: 6, signed: false),
    Format(field: .l2PDataFlag, width: 1, signed: false),
    Format(field: .fitInterval, width: 1, signed: false),
  ]

  /// The values by field; a field not set is zero.
  public var values: [Field: Double]

  /// A message with the given values (code on L2 = P unless given).
  public init(values: [Field: Double] = [:]) {
    self.values = [.codeOnL2: 1].merging(values) { $1 }
  }

  /// The message of a broadcast ephemeris (harmonic corrections, Δn, IDOT, af2 and T_GD zero,
  /// as the emulator's are).
  public init(_ ephemeris: BroadcastEphemeris) {
    let reference = ephemeris.referenceSecondsOfWeek
    self.init(values: [
      .prn: Double(ephemeris.prn), .week: Double(ephemeris.week % 1024),
      .issueOfDataEphemeris: Double(ephemeris.issueOfData),
      .issueOfDataClock: Double(ephemeris.issueOfData), .clockReferenceSeconds: reference,
      .ephemerisReferenceSeconds: reference, .clockDrift: ephemeris.clockDriftSecondsPerSecond,
      .clockBias: ephemeris.clockBiasSeconds, .meanAnomaly: ephemeris.meanAnomalyRadians,
      .eccentricity: ephemeris.eccentricity,
      .squareRootOfSemiMajorAxis: ephemeris.squareRootOfSemiMajorAxis,
      .rightAscension: ephemeris.rightAscensionRadians, .inclination: ephemeris.inclinationRadians,
      .argumentOfPerigee: ephemeris.argumentOfPerigeeRadians,
      .rightAscensionRate: ephemeris.rateOfRightAscensionRadiansPerSecond,
    ])
  }

  /// A field's value, zero when not set.
  public subscript(field: Field) -> Double {
    get { values[field] ?? 0 }
    set { values[field] = newValue }
  }

  /// The payload (61 bytes).
  public func payload() -> [UInt8] {
    var writer = RTCMBitWriter()
    writer.append(unsigned: UInt64(Self.messageNumber), width: 12)
    for format in Self.layout {
      let value = self[format.field] / (format.semicircles ? Double.pi : 1) / format.unit
      writer.append(signed: Int64(value.rounded()), width: format.width)
    }
    return writer.bytes
  }

  /// Decodes a 1019 payload.
  ///
  /// - Throws: `RTCMError.unsupportedMessage` for another number, `.payloadTooShort`.
  public init(payload: [UInt8]) throws(RTCMError) {
    var reader = RTCMBitReader(payload, message: Self.messageNumber)
    let number = try reader.integer(12)
    guard number == Self.messageNumber else { throw .unsupportedMessage(number) }
    var values: [Field: Double] = [:]
    for format in Self.layout {
      let raw =
        format.signed
        ? Double(try reader.signed(format.width)) : Double(try reader.unsigned(format.width))
      values[format.field] = raw * format.unit * (format.semicircles ? Double.pi : 1)
    }
    self.values = values
  }
}
