import SiRF

/// The binary input messages of a SiRFstar in binary mode (SiRF Binary Protocol Reference),
/// as gpsd's SiRF driver sends them while it configures the chip. Each accepted message is
/// answered with MID 11, an unknown or malformed one with MID 12.
extension SiRFCommandHandler {
  mutating func handleBinary(_ frame: SiRFFrame) -> [ReceiverEffect] {
    guard let id = frame.id else { return [] }
    let acknowledged = Self.reply(SiRFReplies.acknowledge(id))
    let refused = [Self.reply(SiRFReplies.refuse(id))]
    switch id {
    case SiRFMessageID.pollSoftwareVersion:
      return [
        acknowledged,
        Self.reply(
          SiRFReplies.softwareVersion(Self.softwareVersion, customer: Self.customerVersion)),
      ]
    case SiRFMessageID.pollNavigationParameters:
      return [acknowledged, Self.reply(navigationParameters.frame)]
    case SiRFMessageID.modeControl:
      guard (try? navigationParameters.apply(modeControl: frame)) != nil else { return refused }
      return [acknowledged]
    case SiRFMessageID.setMessageRate:
      return setMessageRate(frame.fields).map { [acknowledged, $0] } ?? refused
    case SiRFMessageID.switchToNMEA:
      return switchToNMEA(frame.fields) ?? refused
    case SiRFMessageID.setBinarySerialPort:
      return setBinarySerialPort(frame.fields).map { [acknowledged, $0] } ?? refused
    case SiRFMessageID.initializeDataSource:
      return initializeDataSource(frame.fields).map { [acknowledged] + $0 } ?? refused
    case SiRFMessageID.dgpsSource, SiRFMessageID.sbasParameters, SiRFMessageID.pollClockStatus:
      // Accepted; the clock status goes out every epoch anyway.
      return [acknowledged]
    default:
      return refused
    }
  }

  /// The messages each mode of MID 166 sets at once: 2 every message, 3 the default
  /// navigation messages, 4 the default debug messages, 5 the navigation debug messages.
  static let messageRateGroups: [UInt8: [UInt8]] = [
    2: [2, 4, 7, 9, 41, 255], 3: [2, 4], 4: [9, 255], 5: [7, 28, 29, 30, 31],
  ]

  /// MID 166: mode, message ID (mode 0 and 1), rate in seconds (0 off). Mode 0 sets one
  /// message, 1 polls one (accepted; it goes out with the next epoch), 2 to 5 set a group.
  mutating func setMessageRate(_ fields: ArraySlice<UInt8>) -> ReceiverEffect? {
    var reader = SiRFPayloadReader(fields)
    guard let mode = reader.u1(), let id = reader.u1(), let rate = reader.u1(), mode <= 5 else {
      return nil
    }
    let ids = mode <= 1 ? [id] : Self.messageRateGroups[mode] ?? []
    guard mode != 1 else { return .setOutput(output) }
    for id in ids { output.sirf[id] = rate == 0 ? nil : Int(rate) }
    return .setOutput(output)
  }

  /// MID 129: mode, then rate and checksum flag of GGA, GLL, GSA, GSV, RMC, VTG, MSS, an
  /// unused pair, ZDA, another unused pair, and the baud (UInt16).
  mutating func switchToNMEA(_ fields: ArraySlice<UInt8>) -> [ReceiverEffect]? {
    let names = ["GGA", "GLL", "GSA", "GSV", "RMC", "VTG", "MSS", "", "ZDA", ""]
    var reader = SiRFPayloadReader(fields)
    guard reader.u1() != nil else { return nil }
    var rates: [String: Int] = [:]
    for name in names {
      guard let rate = reader.u1(), reader.u1() != nil else { return nil }
      if !name.isEmpty, name != "MSS", rate > 0 { rates[name] = Int(rate) }
    }
    guard let baud = reader.u2(), Self.bauds.contains(Int(baud)),
      let pacing = try? BytePacing(baud: Int(baud))
    else { return nil }
    return [switchToNMEA(rates: rates), .setBaud(pacing)]
  }

  /// MID 134: baud (UInt32), data bits 8, stop bits 1, parity 0.
  func setBinarySerialPort(_ fields: ArraySlice<UInt8>) -> ReceiverEffect? {
    var reader = SiRFPayloadReader(fields)
    guard let baud = reader.u4(), Self.bauds.contains(Int(baud)), reader.u1() == 8,
      reader.u1() == 1, reader.u1() == 0, let pacing = try? BytePacing(baud: Int(baud))
    else { return nil }
    return .setBaud(pacing)
  }

  /// MID 128: ECEF position, clock drift, time of week, week, channels, then the reset
  /// configuration: bit 1 clears the ephemerides (warm start), bit 2 all memory (cold start),
  /// bit 3 the configuration too (factory reset: cold, back to NMEA at the factory baud).
  /// Every initialization restarts the chip.
  mutating func initializeDataSource(_ fields: ArraySlice<UInt8>) -> [ReceiverEffect]? {
    var reader = SiRFPayloadReader(fields)
    guard reader.skip(23), let reset = reader.u1() else { return nil }
    let start: ReceiverRestart.Start =
      reset & 0x0C != 0 ? .cold : reset & 0x02 != 0 ? .warm : .hot
    let restart = ReceiverEffect.restart(ReceiverRestart(start: start, powersUp: true))
    guard reset & 0x08 != 0 else { return [restart] }
    navigationParameters = SiRFNavigationParameters()
    output = profile.defaultOutput(baud: profile.defaultBaud)
    var factory: [ReceiverEffect] = [.setOutput(output)]
    if let pacing = try? BytePacing(baud: profile.defaultBaud) { factory.append(.setBaud(pacing)) }
    return factory + [restart]
  }
}
