/// The RXM messages of the receiver manager this emulator builds (u-blox 8 / M8 receiver
/// description; ZED-F9P interface description, 3.16).
extension UBXMessageType {
  /// Multi-GNSS raw measurements: pseudorange, carrier phase, Doppler per signal.
  public static let rxmRAWX = UBXMessageType(messageClass: 0x02, id: 0x15)
  /// Broadcast navigation data subframes as the receiver decoded them.
  public static let rxmSFRBX = UBXMessageType(messageClass: 0x02, id: 0x13)
  /// The status of one RTCM 3 message received (`UBXRTCMInputStatus`).
  public static let rxmRTCM = UBXMessageType(messageClass: 0x02, id: 0x32)

  /// The names of the messages above, within their class.
  static let receiverManagerNames: [UBXMessageType: String] = [
    .rxmRAWX: "RAWX", .rxmSFRBX: "SFRBX", .rxmRTCM: "RTCM",
  ]
}
