extension MSMMessage {
  /// Decodes the payload of an MSM4 or MSM7 of a system `MSMSystem.all` knows.
  ///
  /// Values come back at the fields' resolution; lock times as the shortest time their
  /// indicator stands for.
  ///
  /// - Throws: `RTCMError.unsupportedMessage` for another number, `.payloadTooShort`,
  ///   `.invalidField` for a cell mask of more than 64 cells.
  public init(payload: [UInt8]) throws(RTCMError) {
    var reader = RTCMBitReader(payload)
    let number = try reader.integer(12)
    guard let (system, kind) = MSMSystem.system(ofMessage: number) else {
      throw .unsupportedMessage(number)
    }
    reader = RTCMBitReader(payload, message: number)
    _ = try reader.integer(12)
    let stationID = try reader.integer(12)
    let epochTime = try reader.integer(30)
    let more = try reader.flag()
    let issue = try reader.integer(3)
    _ = try reader.integer(7)
    let steering = try reader.integer(2)
    let external = try reader.integer(2)
    let smoothing = try reader.flag()
    let interval = try reader.integer(3)
    let satelliteMask = try reader.unsigned(64)
    let signalMask = try reader.unsigned(32)
    let satellites = (1...64).filter { satelliteMask & (1 << UInt64(64 - $0)) != 0 }
    let signals = (1...32).filter { signalMask & (1 << UInt64(32 - $0)) != 0 }
    guard satellites.count * signals.count <= 64 else {
      throw .invalidField(
        message: number, name: "cell mask size", value: Int64(satellites.count * signals.count))
    }
    var cells: [(satellite: Int, signal: Int)] = []
    for satellite in satellites {
      for signal in signals {
        if try reader.flag() { cells.append((satellite, signal)) }
      }
    }
    let satelliteData = try Self.readSatelliteData(&reader, kind: kind, count: satellites.count)
    let indexOfSatellite = Dictionary(
      uniqueKeysWithValues: satellites.enumerated().map { ($1, $0) })
    let signalData = try Self.readSignalData(&reader, kind: kind, count: cells.count)
    var observations: [Observation] = []
    for (index, cell) in cells.enumerated() {
      let satellite = satelliteData[indexOfSatellite[cell.satellite] ?? 0]
      let fine = signalData[index]
      observations.append(
        Observation(
          satelliteID: cell.satellite, signalID: cell.signal,
          pseudorangeMeters: Self.sum(satellite.roughRangeMilliseconds, fine.pseudorange)
            .map { $0 * Self.metersPerMillisecond },
          phaseRangeMeters: Self.sum(satellite.roughRangeMilliseconds, fine.phaseRange)
            .map { $0 * Self.metersPerMillisecond },
          phaseRangeRateMetersPerSecond: Self.sum(satellite.roughRate, fine.rate),
          lockTimeMilliseconds: fine.lockTimeMilliseconds, halfCycleAmbiguity: fine.halfCycle,
          carrierToNoise: fine.carrierToNoise))
    }
    var extended: [Int: Int] = [:]
    if kind.hasRates {
      for (satellite, data) in zip(satellites, satelliteData) {
        extended[satellite] = data.extendedInfo
      }
    }
    self.init(
      system: system, kind: kind, stationID: stationID, epochTime: epochTime,
      moreMessagesFollow: more, issueOfDataStation: issue, clockSteering: steering,
      externalClock: external, divergenceFreeSmoothing: smoothing, smoothingInterval: interval,
      extendedSatelliteInfo: extended, observations: observations)
  }

  /// A rough value plus a fine one, nil when either is invalid.
  static func sum(_ rough: Double?, _ fine: Double?) -> Double? {
    guard let rough, let fine else { return nil }
    return rough + fine
  }

  /// What one satellite's fields say.
  struct SatelliteData {
    var roughRangeMilliseconds: Double?
    var extendedInfo = 0
    var roughRate: Double?
  }

  /// What one cell's fields say, the fine values in milliseconds (ranges) or m/s (rate).
  struct SignalData {
    var pseudorange: Double?
    var phaseRange: Double?
    var lockTimeMilliseconds = 0
    var halfCycle = false
    var carrierToNoise: Double?
    var rate: Double?
  }

  /// Reads a signed field, nil for its invalid value, else scaled by `unit`.
  static func readFine(_ reader: inout RTCMBitReader, width: Int, unit: Double)
    throws(RTCMError) -> Double?
  {
    let value = try reader.signed(width)
    return value == invalid(width: width) ? nil : Double(value) * unit
  }

  /// DF397, the extended information, DF398 and DF399 of `count` satellites.
  static func readSatelliteData(_ reader: inout RTCMBitReader, kind: MSMKind, count: Int)
    throws(RTCMError) -> [SatelliteData]
  {
    var data = [SatelliteData](repeating: SatelliteData(), count: count)
    var whole: [Int] = []
    for _ in 0..<count { whole.append(try reader.integer(8)) }
    if kind.hasRates {
      for index in 0..<count { data[index].extendedInfo = try reader.integer(4) }
    }
    for index in 0..<count {
      let fraction = Double(try reader.integer(10)) / 1024
      data[index].roughRangeMilliseconds =
        whole[index] == 255 ? nil : Double(whole[index]) + fraction
    }
    if kind.hasRates {
      for index in 0..<count { data[index].roughRate = try readFine(&reader, width: 14, unit: 1) }
    }
    return data
  }

  /// The signal data of `count` cells.
  static func readSignalData(_ reader: inout RTCMBitReader, kind: MSMKind, count: Int)
    throws(RTCMError) -> [SignalData]
  {
    var data = [SignalData](repeating: SignalData(), count: count)
    let code = kind.finePseudorange
    for index in 0..<count {
      data[index].pseudorange = try readFine(&reader, width: code.width, unit: code.unit)
    }
    let phase = kind.finePhaseRange
    for index in 0..<count {
      data[index].phaseRange = try readFine(&reader, width: phase.width, unit: phase.unit)
    }
    for index in 0..<count {
      let indicator = try reader.integer(kind.lockTimeWidth)
      data[index].lockTimeMilliseconds =
        kind == .msm7
        ? MSMLockTime.minimumMilliseconds(extendedIndicator: indicator)
        : MSMLockTime.minimumMilliseconds(indicator: indicator)
    }
    for index in 0..<count { data[index].halfCycle = try reader.flag() }
    let noise = kind.carrierToNoise
    for index in 0..<count {
      let units = try reader.integer(noise.width)
      data[index].carrierToNoise = units == 0 ? nil : Double(units) * noise.unit
    }
    if kind.hasRates {
      for index in 0..<count { data[index].rate = try readFine(&reader, width: 15, unit: 0.0001) }
    }
    return data
  }
}
