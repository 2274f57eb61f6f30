extension MSMMessage {
  /// The invalid value of a signed field: its most negative value.
  static func invalid(width: Int) -> Int64 { -(Int64(1) << (width - 1)) }

  /// The rough range of a satellite, in units of 1/1024 ms, from its first valid range; nil
  /// when it has none (DF397 is then 255).
  static func roughRangeUnits(of cells: [Observation]) -> Int64? {
    guard let meters = cells.lazy.compactMap({ $0.pseudorangeMeters ?? $0.phaseRangeMeters }).first
    else { return nil }
    return Int64((meters / metersPerMillisecond * 1024).rounded())
  }

  /// A fine field: `value` minus `reference`, in `unit`s, in `width` bits; the invalid value for
  /// a nil `value`.
  ///
  /// - Throws: `RTCMError.valueOutOfRange` when the difference does not fit.
  static func fine(
    _ name: String, _ value: Double?, reference: Double?, unit: Double, width: Int
  ) throws(RTCMError) -> Int64 {
    guard let value, let reference else { return invalid(width: width) }
    let units = ((value - reference) / unit).rounded()
    let limit = Double(Int64(1) << (width - 1))
    guard units.isFinite, units > -limit, units < limit else {
      throw .valueOutOfRange(name: name, value: value)
    }
    return Int64(units)
  }

  /// The message's payload.
  ///
  /// - Throws: `RTCMError.valueOutOfRange` for IDs outside the masks, more than 64 cells, a
  ///   range beyond 254 ms, or a fine value that does not fit beside its satellite's rough one
  ///   (a phase range more than about 1171 m from the pseudorange).
  public func payload() throws(RTCMError) -> [UInt8] {
    let satellites = satelliteIDs
    let signals = signalIDs
    guard satellites.allSatisfy((1...64).contains), signals.allSatisfy((1...32).contains),
      satellites.count * signals.count <= 64
    else {
      throw .valueOutOfRange(name: "cell count", value: Double(satellites.count * signals.count))
    }
    var writer = RTCMBitWriter()
    writeHeader(to: &writer, satellites: satellites, signals: signals)
    let cellsBySatellite = Dictionary(grouping: observations, by: \.satelliteID)
    var roughRanges: [Int: Int64] = [:]
    var roughRates: [Int: Int64] = [:]
    for id in satellites {
      let cells = cellsBySatellite[id] ?? []
      roughRanges[id] = Self.roughRangeUnits(of: cells)
      if let rate = cells.lazy.compactMap(\.phaseRangeRateMetersPerSecond).first {
        roughRates[id] = Int64(rate.rounded())
      }
    }
    try writeSatelliteData(
      to: &writer, satellites, roughRanges: roughRanges, roughRates: roughRates)
    try writeSignalData(to: &writer, roughRanges: roughRanges, roughRates: roughRates)
    return writer.bytes
  }

  /// The header with its three masks.
  func writeHeader(to writer: inout RTCMBitWriter, satellites: [Int], signals: [Int]) {
    writer.append(unsigned: UInt64(messageNumber), width: 12)
    writer.append(unsigned: UInt64(stationID & 0xFFF), width: 12)
    writer.append(unsigned: UInt64(epochTime & 0x3FFF_FFFF), width: 30)
    writer.append(moreMessagesFollow)
    writer.append(unsigned: UInt64(issueOfDataStation & 7), width: 3)
    writer.append(unsigned: 0, width: 7)
    writer.append(unsigned: UInt64(clockSteering & 3), width: 2)
    writer.append(unsigned: UInt64(externalClock & 3), width: 2)
    writer.append(divergenceFreeSmoothing)
    writer.append(unsigned: UInt64(smoothingInterval & 7), width: 3)
    writer.append(unsigned: satellites.reduce(UInt64(0)) { $0 | 1 << UInt64(64 - $1) }, width: 64)
    writer.append(unsigned: signals.reduce(UInt64(0)) { $0 | 1 << UInt64(32 - $1) }, width: 32)
    let present = Set(observations.map { [$0.satelliteID, $0.signalID] })
    for satellite in satellites {
      for signal in signals { writer.append(present.contains([satellite, signal])) }
    }
  }

  /// DF397, the extended information, DF398 and DF399 of every satellite.
  func writeSatelliteData(
    to writer: inout RTCMBitWriter, _ satellites: [Int], roughRanges: [Int: Int64],
    roughRates: [Int: Int64]
  ) throws(RTCMError) {
    for id in satellites {
      let milliseconds = roughRanges[id].map { $0 >> 10 } ?? 255
      guard milliseconds >= 0, milliseconds <= 255, roughRanges[id] == nil || milliseconds < 255
      else { throw .valueOutOfRange(name: "rough range", value: Double(milliseconds)) }
      writer.append(unsigned: UInt64(milliseconds), width: 8)
    }
    if kind.hasRates {
      for id in satellites {
        writer.append(unsigned: UInt64((extendedSatelliteInfo[id] ?? 0) & 0xF), width: 4)
      }
    }
    for id in satellites {
      writer.append(unsigned: UInt64((roughRanges[id] ?? 0) & 0x3FF), width: 10)
    }
    guard kind.hasRates else { return }
    for id in satellites {
      let rate = roughRates[id] ?? Self.invalid(width: 14)
      guard rate >= Self.invalid(width: 14), rate < 8192 else {
        throw .valueOutOfRange(name: "rough phase range rate", value: Double(rate))
      }
      writer.append(signed: rate, width: 14)
    }
  }

  /// One fine range field of every cell: the cell's value less its satellite's rough range,
  /// in `format.unit` milliseconds.
  func writeFine(
    _ name: String, _ value: KeyPath<Observation, Double?>, _ rough: [Double?],
    _ format: (width: Int, unit: Double), to writer: inout RTCMBitWriter
  ) throws(RTCMError) {
    for (cell, reference) in zip(observations, rough) {
      let units = try Self.fine(
        name, cell[keyPath: value], reference: reference,
        unit: format.unit * Self.metersPerMillisecond, width: format.width)
      writer.append(signed: units, width: format.width)
    }
  }

  /// Every cell's fine pseudorange, then fine phase range, lock time, half-cycle, CNR and (MSM7)
  /// fine phase range rate.
  func writeSignalData(
    to writer: inout RTCMBitWriter, roughRanges: [Int: Int64], roughRates: [Int: Int64]
  ) throws(RTCMError) {
    let rough = observations.map { cell in
      roughRanges[cell.satelliteID].map { Double($0) / 1024 * Self.metersPerMillisecond }
    }
    try writeFine(
      "fine pseudorange", \.pseudorangeMeters, rough, kind.finePseudorange, to: &writer)
    try writeFine("fine phase range", \.phaseRangeMeters, rough, kind.finePhaseRange, to: &writer)
    for cell in observations {
      let indicator =
        kind == .msm7
        ? MSMLockTime.extendedIndicator(milliseconds: cell.lockTimeMilliseconds)
        : MSMLockTime.indicator(milliseconds: cell.lockTimeMilliseconds)
      writer.append(unsigned: UInt64(indicator), width: kind.lockTimeWidth)
    }
    for cell in observations { writer.append(cell.halfCycleAmbiguity) }
    let noise = kind.carrierToNoise
    for cell in observations {
      let largest = Double((1 << noise.width) - 1)
      let units = cell.carrierToNoise.map { min(largest, max(1, ($0 / noise.unit).rounded())) } ?? 0
      writer.append(unsigned: UInt64(units), width: noise.width)
    }
    guard kind.hasRates else { return }
    for cell in observations {
      let value = try Self.fine(
        "fine phase range rate", cell.phaseRangeRateMetersPerSecond,
        reference: roughRates[cell.satelliteID].map(Double.init), unit: 0.0001, width: 15)
      writer.append(signed: value, width: 15)
    }
  }
}
