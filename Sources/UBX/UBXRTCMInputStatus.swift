/// UBX-RXM-RTCM: what the receiver made of one RTCM 3 message it received (ZED-F9P interface
/// description, 3.16.10), sent for every message when the output is enabled.
///
///     version U1 (2) | flags X1 (bit 0 crcFailed, bits 1–2 msgUsed) | subType U2
///     | refStation U2 | msgType U2
public enum UBXRTCMInputStatus {
  /// Whether the receiver used the message (`msgUsed`).
  public enum Use: UInt8, Hashable, Sendable {
    /// Not known: a message whose CRC failed.
    case unknown = 0
    /// Received but not used.
    case unused
    /// Used.
    case used
  }

  /// The RXM-RTCM frame (8 bytes of payload) of message `messageType` from station
  /// `referenceStation` (0 when it names none); `subType` is that of a u-blox 4072 message.
  public static func frame(
    messageType: UInt16, referenceStation: UInt16, checksumFailed: Bool, use: Use,
    subType: UInt16 = 0
  ) -> UBXFrame {
    var writer = UBXPayloadWriter()
    writer.u1(2)
    writer.u1((checksumFailed ? 1 : 0) | use.rawValue << 1)
    writer.u2(subType)
    writer.u2(referenceStation)
    writer.u2(messageType)
    return UBXFrame(.rxmRTCM, payload: writer.bytes)
  }
}
