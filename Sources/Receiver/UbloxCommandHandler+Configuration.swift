import UBX

/// The CFG class: each message is answered with ACK-ACK, or ACK-NAK where the chip refuses it.
extension UbloxCommandHandler {
  /// Answers one CFG message.
  mutating func configure(_ frame: UBXFrame) -> [ReceiverEffect] {
    switch frame.messageType {
    case .cfgPRT: return configurePort(frame)
    case .cfgMSG: return configureMessageRate(frame)
    case .cfgRATE: return configureRate(frame)
    case .cfgVALSET where firmware.hasConfigurationDatabase: return setValues(frame)
    case .cfgVALGET where firmware.hasConfigurationDatabase: return getValues(frame)
    default: return Self.refuse(frame)
    }
  }

  /// CFG-PRT: a poll of the current port or of UART1 is answered; a 20-byte UART1 setting
  /// switches the output protocols and the baud.
  mutating func configurePort(_ frame: UBXFrame) -> [ReceiverEffect] {
    switch frame.payload.count {
    case 0: return [.reply(port.frame.bytes), Self.acknowledge(frame)]
    case 1 where frame.payload[0] == UBXPortConfiguration.uart1:
      return [.reply(port.frame.bytes), Self.acknowledge(frame)]
    default:
      guard let requested = UBXPortConfiguration(payload: frame.payload),
        requested.portID == UBXPortConfiguration.uart1,
        let pacing = try? BytePacing(baud: requested.baud), pacing.baud != 0
      else { return Self.refuse(frame) }
      var changed = output
      changed.ubxProtocolEnabled = requested.outProtocols.contains(.ubx)
      changed.nmeaProtocolEnabled = requested.outProtocols.contains(.nmea)
      return [Self.acknowledge(frame)] + apply(output: changed) + apply(baud: pacing)
    }
  }

  /// CFG-MSG: a poll reports the UART1 rate; a setting changes it (NMEA class `0xF0` or UBX);
  /// a message the firmware does not have is refused.
  mutating func configureMessageRate(_ frame: UBXFrame) -> [ReceiverEffect] {
    guard let command = UBXMessageRateCommand(payload: frame.payload),
      !firmware.removedMessages.contains(command.messageType)
    else { return Self.refuse(frame) }
    switch command {
    case .poll(let type):
      return [
        .reply(UBXMessageRateCommand.report(type, uart1Rate: rate(of: type)).bytes),
        Self.acknowledge(frame),
      ]
    case .setCurrentPort(let type, let newRate):
      return [Self.acknowledge(frame)] + apply(output: output(setting: type, to: newRate))
    case .setPorts(let type, let rates):
      let uart1Rate = rates[Int(UBXPortConfiguration.uart1)]
      return [Self.acknowledge(frame)] + apply(output: output(setting: type, to: uart1Rate))
    }
  }

  /// CFG-RATE: a poll reports the rate; a setting within 0.1–20 Hz changes it.
  mutating func configureRate(_ frame: UBXFrame) -> [ReceiverEffect] {
    if frame.payload.isEmpty { return [.reply(rate.frame.bytes), Self.acknowledge(frame)] }
    guard let requested = UBXNavigationRate(payload: frame.payload),
      let plan = Self.plan(requested)
    else { return Self.refuse(frame) }
    rate = requested
    return [Self.acknowledge(frame), .setRate(plan)]
  }
}
