/// UBX-RXM-RAWX: the raw measurements of one epoch, version 1 as the ZED-F9P sends it
/// (ZED-F9P interface description, 3.16.4): a 16-byte header, then 32 bytes per signal.
public struct UBXRawMeasurements: Hashable, Sendable {
  /// The receiver's time of week when it measured, seconds.
  public var receiverSecondsOfWeek: Double
  /// The GPS week.
  public var week: Int
  /// GPS − UTC, seconds.
  public var leapSeconds: Int
  /// True when the receiver stepped its clock since the previous epoch (`recStat` bit 1).
  public var clockWasReset: Bool
  /// The measurements.
  public var measurements: [Measurement]

  /// Creates the message.
  public init(
    receiverSecondsOfWeek: Double, week: Int, leapSeconds: Int, clockWasReset: Bool,
    measurements: [Measurement]
  ) {
    self.receiverSecondsOfWeek = receiverSecondsOfWeek
    self.week = week
    self.leapSeconds = leapSeconds
    self.clockWasReset = clockWasReset
    self.measurements = measurements
  }

  /// One signal of one satellite.
  public struct Measurement: Hashable, Sendable {
    public var system: UBXSatellite.System
    public var number: Int
    /// The u-blox signal ID within the system (0 for GPS L1 C/A).
    public var signalID: Int
    /// GLONASS frequency slot + 7; 0 for the other systems.
    public var frequencyID: Int
    public var pseudorangeMeters: Double
    public var carrierPhaseCycles: Double
    public var dopplerHertz: Double
    public var lockTimeMilliseconds: Int
    public var carrierToNoise: Int
    public var pseudorangeSigmaMeters: Double
    public var carrierPhaseSigmaCycles: Double
    public var dopplerSigmaHertz: Double

    /// Creates a measurement.
    public init(
      system: UBXSatellite.System, number: Int, signalID: Int, frequencyID: Int = 0,
      pseudorangeMeters: Double, carrierPhaseCycles: Double, dopplerHertz: Double,
      lockTimeMilliseconds: Int, carrierToNoise: Int, pseudorangeSigmaMeters: Double,
      carrierPhaseSigmaCycles: Double, dopplerSigmaHertz: Double
    ) {
      self.system = system
      self.number = number
      self.signalID = signalID
      self.frequencyID = frequencyID
      self.pseudorangeMeters = pseudorangeMeters
      self.carrierPhaseCycles = carrierPhaseCycles
      self.dopplerHertz = dopplerHertz
      self.lockTimeMilliseconds = lockTimeMilliseconds
      self.carrierToNoise = carrierToNoise
      self.pseudorangeSigmaMeters = pseudorangeSigmaMeters
      self.carrierPhaseSigmaCycles = carrierPhaseSigmaCycles
      self.dopplerSigmaHertz = dopplerSigmaHertz
    }
  }

  /// At most this many signals fit one frame (the payload limit).
  public static let maximumMeasurements = 127

  /// The frame.
  public var frame: UBXFrame {
    var writer = UBXPayloadWriter(capacity: 16 + 32 * measurements.count)
    writer.r8(receiverSecondsOfWeek)
    writer.u2(UInt16(clamping: week))
    writer.i1(Int8(clamping: leapSeconds))
    let kept = measurements.prefix(Self.maximumMeasurements)
    writer.u1(UInt8(kept.count))
    // recStat: leap seconds determined, clock reset.
    writer.u1(1 | (clockWasReset ? 2 : 0))
    writer.u1(1)  // version
    writer.zeros(2)
    for measurement in kept {
      writer.fields(byteCount: 32) { record in
        record.r8(measurement.pseudorangeMeters)
        record.r8(measurement.carrierPhaseCycles)
        record.r4(Float(measurement.dopplerHertz))
        record.u1(measurement.system.rawValue)
        record.u1(UInt8(clamping: measurement.number))
        record.u1(UInt8(clamping: measurement.signalID))
        record.u1(UInt8(clamping: measurement.frequencyID))
        record.u2(UInt16(clamping: min(64_500, measurement.lockTimeMilliseconds)))
        record.u1(UInt8(clamping: measurement.carrierToNoise))
        record.u1(Self.exponentCode(measurement.pseudorangeSigmaMeters / 0.01))
        record.u1(
          UInt8(clamping: Int((measurement.carrierPhaseSigmaCycles / 0.004).rounded(.up))))
        record.u1(Self.exponentCode(measurement.dopplerSigmaHertz / 0.002))
        // trkStat: pseudorange valid, carrier phase valid, half cycle resolved.
        record.u1(0x07)
        record.zeros(1)
      }
    }
    return UBXFrame(.rxmRAWX, payload: writer.bytes)
  }

  /// The 4-bit code n of a standard deviation given as multiples of its unit: unit × 2ⁿ, the
  /// smallest n that covers it (at most 15; 0 for what is not a number).
  static func exponentCode(_ multiples: Double) -> UInt8 {
    guard multiples > 1 else { return 0 }
    guard multiples.isFinite else { return 15 }
    // multiples = 1.f × 2^e (normal, being over 1; 1.0 has e = 0): 2^e covers it when f is 0,
    // the next power of two otherwise.
    let exponent = Int(multiples.exponentBitPattern) - Int((1.0).exponentBitPattern)
    let code = exponent + (multiples.significandBitPattern != 0 ? 1 : 0)
    return UInt8(min(code, 15))
  }
}
