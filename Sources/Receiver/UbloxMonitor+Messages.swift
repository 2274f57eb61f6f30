import UBX

/// The MON messages a u-blox chip builds from its monitor, for a poll (`UbloxCommandHandler`)
/// and for the periodic output CFG-MSG or CFG-MSGOUT switch on (`UBXNavigationEncoder`): one
/// builder for both.
extension UbloxMonitor {
  /// The MON messages each chip answers: u-blox 9 adds MON-RF and MON-COMMS. The ZED-F9P
  /// keeps MON-HW and MON-HW2 (deprecated for MON-HW3 and MON-RF, but in its interface
  /// description, with their `CFG-MSGOUT-UBX_MON_HW2_*` keys); ArduPilot switches MON-HW2 on.
  static func messages(firmware: UbloxFirmware) -> [UBXMessageType] {
    firmware.hasConfigurationDatabase
      ? [.monVER, .monHW, .monHW2, .monRF, .monGNSS, .monCOMMS, .monRXBUF, .monTXBUF, .monMSGPP]
      : [.monVER, .monHW, .monHW2, .monGNSS, .monRXBUF, .monTXBUF, .monMSGPP]
  }

  /// The MON messages the periodic output sends at the rate a client sets, in this order: the
  /// front end's, which depend on the chip alone, then MON-COMMS, whose traffic counters the
  /// command handler hands the encoder (`ReceiverEffect.setPortTraffic`). MON-RXBUF, -TXBUF
  /// and -MSGPP are answered to polls only; MON-VER and MON-GNSS are polled messages on the
  /// chip.
  static let periodicMessages: [UBXMessageType] = [.monHW, .monHW2, .monRF, .monCOMMS]

  /// The MON message `type` as the chip reports it now, or nil for one `firmware` does not
  /// have.
  func frame(_ type: UBXMessageType, firmware: UbloxFirmware) -> UBXFrame? {
    guard Self.messages(firmware: firmware).contains(type) else { return nil }
    switch type {
    case .monVER: return firmware.version.frame
    case .monHW: return radio.monHW
    case .monHW2: return radio.monHW2
    case .monRF: return radio.monRF
    case .monGNSS: return gnss.frame
    case .monCOMMS: return traffic.monCOMMS
    case .monRXBUF: return traffic.monRXBUF
    case .monTXBUF: return traffic.monTXBUF
    case .monMSGPP: return traffic.monMSGPP
    default: return nil
    }
  }
}
