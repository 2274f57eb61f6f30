import RTCM
import UBX

extension UbloxCommandHandler {
  /// The RTCM 3 messages a ZED-F9P rover uses: the station (1005, 1006), MSM4 to MSM7 of
  /// GPS, GLONASS, Galileo and BeiDou, GLONASS biases (1230) and u-blox's moving base (4072).
  static func rtcmMessageIsUsed(_ number: Int) -> Bool {
    if [1005, 1006, 1230, 4072].contains(number) { return true }
    let systems = [1070, 1080, 1090, 1120]
    return systems.contains(number - number % 10) && (4...7).contains(number % 10)
  }

  /// Takes an RTCM 3 message written to the chip: on u-blox 9 the corrections go to the rover
  /// (`ReceiverEffect.useCorrections`); and RXM-RTCM reports it when that output is on
  /// (CFG-MSGOUT-UBX_RXM_RTCM_UART1 or CFG-MSG 02 32): its number, station and whether its CRC
  /// failed.
  mutating func handle(rtcm event: RTCMFramer.Event) -> [ReceiverEffect] {
    let reports = rate(of: .rxmRTCM) > 0
    switch event {
    case .frame(let frame):
      let number = frame.messageNumber ?? 0
      let message = try? RTCMMessage(frame: frame)
      var effects: [ReceiverEffect] = []
      if reports {
        let station = message?.stationID ?? 0
        let status = UBXRTCMInputStatus.frame(
          messageType: UInt16(number), referenceStation: UInt16(station & 0xFFF),
          checksumFailed: false, use: Self.rtcmMessageIsUsed(number) ? .used : .unused,
          subType: UInt16(MovingBaseReference.subType(of: frame.payload) ?? 0))
        effects.append(.reply(status.bytes))
      }
      if firmware.hasConfigurationDatabase, let input = message.flatMap(CorrectionInput.init) {
        effects.append(.useCorrections(input))
      }
      return effects
    case .checksumFailed(let number):
      guard reports else { return [] }
      let status = UBXRTCMInputStatus.frame(
        messageType: UInt16(number ?? 0), referenceStation: 0, checksumFailed: true,
        use: .unknown)
      return [.reply(status.bytes)]
    }
  }

  /// The rover's settings in the configuration: CFG-NAVSPG-CONSTR_DGNSSTO and
  /// CFG-NAVHPG-DGNSSMODE (u-blox 9).
  var configuredRoverSettings: RTKSettings {
    let factory = RTKSettings()
    return RTKSettings(
      correctionTimeoutSeconds: value(of: .correctionTimeout).map(Double.init)
        ?? factory.correctionTimeoutSeconds,
      fixesAmbiguities: value(of: .differentialMode).map { $0 != 2 } ?? factory.fixesAmbiguities)
  }
}
