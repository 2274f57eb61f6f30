/// UBX-ACK-ACK and UBX-ACK-NAK: a receiver's answer to each CFG message, naming it.
public enum UBXAcknowledgement {
  /// ACK-ACK for a message of this type.
  public static func acknowledge(_ type: UBXMessageType) -> UBXFrame {
    UBXFrame(.ackACK, payload: [type.messageClass, type.id])
  }

  /// ACK-NAK for a message of this type.
  public static func refuse(_ type: UBXMessageType) -> UBXFrame {
    UBXFrame(.ackNAK, payload: [type.messageClass, type.id])
  }
}
