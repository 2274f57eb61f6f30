/// UBX-CFG-RATE: the measurement period and how many measurements make a navigation epoch.
///
///     measRate U2 (ms) | navRate U2 (cycles) | timeRef U2 (0 UTC, 1 GPS)          (6 bytes)
public struct UBXNavigationRate: Hashable, Sendable {
  public var measurementPeriodMilliseconds: Int
  public var measurementsPerEpoch: Int
  public var timeReference: Int

  /// Creates a rate.
  public init(measurementPeriodMilliseconds: Int, measurementsPerEpoch: Int, timeReference: Int = 1)
  {
    self.measurementPeriodMilliseconds = measurementPeriodMilliseconds
    self.measurementsPerEpoch = measurementsPerEpoch
    self.timeReference = timeReference
  }

  /// Reads a 6-byte CFG-RATE payload; nil for any other length.
  public init?(payload: [UInt8]) {
    guard payload.count == 6 else { return nil }
    var reader = UBXPayloadReader(payload)
    guard let period = reader.u2(), let count = reader.u2(), let reference = reader.u2() else {
      return nil
    }
    self.init(
      measurementPeriodMilliseconds: Int(period), measurementsPerEpoch: Int(count),
      timeReference: Int(reference))
  }

  /// Navigation epochs per second, or nil when a field is 0.
  public var epochsPerSecond: Double? {
    guard measurementPeriodMilliseconds > 0, measurementsPerEpoch > 0 else { return nil }
    return 1000 / Double(measurementPeriodMilliseconds * measurementsPerEpoch)
  }

  /// The CFG-RATE frame (a poll's answer).
  public var frame: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u2(UInt16(clamping: measurementPeriodMilliseconds))
    payload.u2(UInt16(clamping: measurementsPerEpoch))
    payload.u2(UInt16(clamping: timeReference))
    return UBXFrame(.cfgRATE, payload: payload.bytes)
  }
}

/// UBX-CFG-MSG as a client sends it: a 2-byte poll, a 3-byte rate for the port it arrives on,
/// or an 8-byte rate for each of the six ports (I2C, UART1, UART2, USB, SPI, reserved).
public enum UBXMessageRateCommand: Hashable, Sendable {
  case poll(UBXMessageType)
  case setCurrentPort(UBXMessageType, rate: Int)
  case setPorts(UBXMessageType, rates: [Int])

  /// Reads a CFG-MSG payload; nil for a length other than 2, 3 or 8.
  public init?(payload: [UInt8]) {
    guard payload.count >= 2 else { return nil }
    let type = UBXMessageType(messageClass: payload[0], id: payload[1])
    switch payload.count {
    case 2: self = .poll(type)
    case 3: self = .setCurrentPort(type, rate: Int(payload[2]))
    case 8: self = .setPorts(type, rates: payload[2...].map(Int.init))
    default: return nil
    }
  }

  /// The message whose rate is polled or set.
  public var messageType: UBXMessageType {
    switch self {
    case .poll(let type), .setCurrentPort(let type, _), .setPorts(let type, _): return type
    }
  }

  /// The 8-byte CFG-MSG frame reporting `rate` on UART1 (a poll's answer).
  public static func report(_ type: UBXMessageType, uart1Rate rate: Int) -> UBXFrame {
    var rates = [UInt8](repeating: 0, count: 6)
    rates[Int(UBXPortConfiguration.uart1)] = UInt8(clamping: rate)
    return UBXFrame(.cfgMSG, payload: [type.messageClass, type.id] + rates)
  }
}
