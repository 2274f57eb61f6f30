/// Follows a client's command to change the receiver's baud: a UBX CFG-PRT (or CFG-VALSET of
/// CFG-UART1-BAUDRATE) or a PMTK251 written to the receiver, which takes effect on the real
/// port once the receiver acknowledges it (UBX ACK-ACK of the command, `$PMTK001,251,3`).
///
/// PLACEHOLDER CONTRACT (issue 10): helper B replaces the body.
public struct BaudChangeWatcher: Sendable {
  public init() {}

  /// Looks at bytes the client wrote to the receiver.
  public mutating func clientSent(_ chunk: some Collection<UInt8>) {}

  /// Looks at bytes the receiver sent; returns the new baud once the receiver has acknowledged
  /// a pending change (the caller switches the real port after forwarding these bytes).
  public mutating func receiverSent(_ chunk: some Collection<UInt8>) -> Int? { nil }
}
