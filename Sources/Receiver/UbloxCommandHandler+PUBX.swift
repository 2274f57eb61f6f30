import UBX

/// The NMEA commands of a u-blox 8 or 9: `$PUBX,41` (PUBX-CONFIG) and `$PUBX,40` (PUBX-RATE),
/// which are CFG-PRT and CFG-MSG written as NMEA. They take effect as those UBX messages do
/// (stored per port, UART1's settings switching the output and the baud) but are never
/// acknowledged. A poll (`NMEAPoll`: `$xxGNQ,msgId`, `$PUBX,00`, `03`, `04`) is answered with
/// that sentence of the last epoch while UART1 sends NMEA; any other NMEA line, or one with a
/// bad field or checksum, is ignored.
extension UbloxCommandHandler {
  /// Answers one NMEA line: a poll's reply or the effects of a PUBX command, none for anything
  /// else.
  mutating func handle(nmea line: String) -> [ReceiverEffect] {
    if let poll = NMEAPoll(parsing: line) {
      guard output.nmeaProtocolEnabled, let type = UBXMessageType(nmeaSentence: poll.sentence)
      else { return [] }
      return [.replyFromEpoch(type)]
    }
    guard let command = try? PUBXCommand(parsing: line) else { return [] }
    let frame: UBXFrame?
    switch command {
    case .configurePort(let portID, let input, let output, let baud, _):
      frame = portConfigurationFrame(portID: portID, input: input, output: output, baud: baud)
    case .setRates(let sentence, let rates):
      frame = UBXMessageType(nmeaSentence: sentence).map {
        UBXFrame(
          .cfgMSG,
          payload: [$0.messageClass, $0.id] + rates.map { UInt8(clamping: $0) } + [0])
      }
    }
    guard let frame else { return [] }
    return handle(frame).filter {
      if case .reply = $0 { return false }
      return true
    }
  }

  /// The CFG-PRT frame PUBX,41 stands for: the port's block as the chip reports it with the
  /// protocol masks replaced and, on a UART (ports 1 and 2), the baud; nil for a port the chip
  /// does not report.
  func portConfigurationFrame(
    portID: UInt8, input: UBXPortConfiguration.Protocols,
    output: UBXPortConfiguration.Protocols, baud: Int
  ) -> UBXFrame? {
    guard
      var port = reported(.cfgPRT, instance: UInt16(portID)).flatMap(
        UBXPortConfiguration.init(payload:))
    else { return nil }
    port.inProtocols = input
    port.outProtocols = output
    if portID == 1 || portID == 2 { port.baud = baud }
    return port.frame
  }
}
