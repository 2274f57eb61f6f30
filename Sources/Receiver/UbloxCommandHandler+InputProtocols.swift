import UBX

/// The protocols UART1 reads: a u-blox chip ignores a message of a protocol its port does not
/// take in (`inProtoMask` of CFG-PRT on u-blox 8, `CFG-UART1INPROT-UBX` and `-NMEA` on
/// u-blox 9, which a legacy CFG-PRT or PUBX,41 for UART1 sets there), as if it had not been
/// sent: no answer, no effect. With UBX input off, PUBX,41 (NMEA) is the way back.
extension UbloxCommandHandler {
  /// `CFG-UART1INPROT-UBX`: UART1 reads UBX.
  static let uart1InputUBXKey = UBXConfigurationKey(0x1073_0001)
  /// `CFG-UART1INPROT-NMEA`: UART1 reads NMEA.
  static let uart1InputNMEAKey = UBXConfigurationKey(0x1073_0002)

  /// `CFG-UART1INPROT-RTCM3X`: UART1 reads RTCM 3.
  static let uart1InputRTCM3Key = UBXConfigurationKey(0x1073_0004)

  /// True when UART1 takes `message`'s protocol in (another chip's protocol is left to the
  /// handler, which ignores it).
  func takesInput(_ message: ClientMessage) -> Bool {
    let needed: UBXPortConfiguration.Protocols
    let key: UBXConfigurationKey
    switch message {
    case .ubx: (needed, key) = (.ubx, Self.uart1InputUBXKey)
    case .nmea: (needed, key) = (.nmea, Self.uart1InputNMEAKey)
    case .rtcm: (needed, key) = (.rtcm3, Self.uart1InputRTCM3Key)
    case .sirf: return true
    }
    if firmware.hasConfigurationDatabase { return value(of: key) ?? 1 != 0 }
    let uart1 = UInt16(UBXPortConfiguration.uart1)
    let port = configurationState.current[.cfgPRT, uart1].flatMap(
      UBXPortConfiguration.init(payload:))
    return port?.inProtocols.contains(needed) ?? true
  }
}
