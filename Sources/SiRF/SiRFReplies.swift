/// The chip's answers and status messages that do not depend on the solution.
public enum SiRFReplies {
  /// MID 6, software version, in the form of SiRF protocol 4 and later: the lengths of the
  /// SiRF version and of the customer version, then both NUL-terminated.
  public static func softwareVersion(_ version: String, customer: String) -> SiRFFrame {
    var writer = SiRFPayloadWriter(id: SiRFMessageID.softwareVersion)
    writer.u1(UInt8(clamping: version.utf8.count + 1))
    writer.u1(UInt8(clamping: customer.utf8.count + 1))
    writer.nulTerminated(version)
    writer.nulTerminated(customer)
    return writer.frame
  }

  /// MID 11: the input message `id` was accepted.
  public static func acknowledge(_ id: UInt8) -> SiRFFrame {
    SiRFFrame(id: SiRFMessageID.acknowledgement, fields: [id])
  }

  /// MID 12: the input message `id` was refused.
  public static func refuse(_ id: UInt8) -> SiRFFrame {
    SiRFFrame(id: SiRFMessageID.negativeAcknowledgement, fields: [id])
  }

  /// MID 9, CPU throughput: segment statistics maximum and latency, average tracking time
  /// (each × 186 µs units) and the last millisecond of navigation processing.
  public static let throughput = SiRFFrame(
    id: SiRFMessageID.throughput, fields: [0x00, 0x2E, 0x00, 0x07, 0x00, 0x09, 0x01, 0xF4])

  /// MID 255, development data: a line of text.
  public static func developmentText(_ text: String) -> SiRFFrame {
    SiRFFrame(id: SiRFMessageID.developmentData, fields: Array(text.utf8))
  }
}

/// The navigation parameters a SiRF reports in MID 19 (65 bytes), as mode control (MID 136)
/// sets them.
public struct SiRFNavigationParameters: Hashable, Sendable {
  public var altitudeHoldMode: UInt8 = 0
  public var altitudeHoldSource: UInt8 = 0
  public var altitudeMeters: Int16 = 0
  public var degradedMode: UInt8 = 4
  public var degradedTimeoutSeconds: UInt8 = 30
  public var deadReckoningTimeoutSeconds: UInt8 = 15
  public var trackSmoothing: UInt8 = 0

  /// The factory values.
  public init() {}

  /// Reads the fields of MID 136, mode control, after its ID: two reserved bytes, degraded
  /// mode, two reserved, altitude, altitude hold mode and source, a reserved byte, degraded
  /// timeout, dead-reckoning timeout, track smoothing.
  ///
  /// - Throws: `SiRFError.shortPayload` when the fields stop early.
  public mutating func apply(modeControl frame: SiRFFrame) throws(SiRFError) {
    var reader = SiRFPayloadReader(frame.payload, offset: 1)
    guard reader.skip(2), let degraded = reader.u1(), reader.skip(2),
      let altitude = reader.u2(), let holdMode = reader.u1(), let holdSource = reader.u1(),
      reader.skip(1), let degradedTimeout = reader.u1(), let deadReckoning = reader.u1(),
      let smoothing = reader.u1()
    else {
      throw .shortPayload(
        messageID: SiRFMessageID.modeControl, found: frame.payload.count, needed: 14)
    }
    degradedMode = degraded
    altitudeMeters = Int16(bitPattern: altitude)
    altitudeHoldMode = holdMode
    altitudeHoldSource = holdSource
    degradedTimeoutSeconds = degradedTimeout
    deadReckoningTimeoutSeconds = deadReckoning
    trackSmoothing = smoothing
  }

  /// MID 19 with these values; the other fields are the chip's factory values (elevation
  /// mask 7.5°, DOP mask auto, SBAS as DGPS source), power-saving off.
  public var frame: SiRFFrame {
    var writer = SiRFPayloadWriter(id: SiRFMessageID.navigationParameters)
    writer.u1(0)  // sub ID
    writer.zeros(3)
    writer.u1(altitudeHoldMode)
    writer.u1(altitudeHoldSource)
    writer.i2(altitudeMeters)
    writer.u1(degradedMode)
    writer.u1(degradedTimeoutSeconds)
    writer.u1(deadReckoningTimeoutSeconds)
    writer.u1(trackSmoothing)
    writer.u1(0)  // static navigation
    writer.u1(0)  // 3-satellite least squares
    writer.zeros(4)
    writer.u1(4)  // DOP mask mode: auto
    writer.i2(75)  // navigation elevation mask, 0.1°
    writer.u1(28)  // navigation power mask, dB-Hz
    writer.zeros(4)
    writer.u1(1)  // DGPS source: SBAS
    writer.u1(0)  // DGPS mode: auto
    writer.u1(0)  // DGPS timeout: auto
    writer.zeros(4)
    writer.zeros(65 - writer.bytes.count)  // low-power settings: off
    return writer.frame
  }
}
