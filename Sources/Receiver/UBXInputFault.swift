import UBX

/// A UBX frame a client wrote that the chip drops or refuses for its form, for the device's
/// counters and log.
///
/// As the u-blox 8 / M8 receiver description and the ZED-F9P interface description have it
/// (UBX frame structure, UBX-ACK): a frame whose checksum fails is not a frame to the chip,
/// which drops it without an answer (it never knows which message it was meant to be); a CFG
/// message whose payload has a length the message cannot have is answered with ACK-NAK.
public struct UBXInputFault: Hashable, Sendable, CustomStringConvertible {
  /// What was wrong.
  public enum Kind: Hashable, Sendable {
    /// The checksum bytes do not match: dropped unanswered.
    case badChecksum(expected: UBXChecksum, found: UBXChecksum)
    /// The payload has a length the message does not have: NAK'd.
    case wrongLength(count: Int)
  }

  /// The message the frame's class and ID name.
  public var type: UBXMessageType
  public var kind: Kind

  /// Creates a fault of a frame naming `type`.
  public init(type: UBXMessageType, kind: Kind) {
    self.type = type
    self.kind = kind
  }

  /// `UBX-CFG-RATE with a bad checksum 'CK' (computed 'CK'): dropped`, or
  /// `UBX-CFG-RATE with a payload of 5 bytes, a length it cannot have: NAK'd`.
  public var description: String {
    switch kind {
    case .badChecksum(let expected, let found):
      return "UBX-\(type) with a bad checksum '\(found)' (computed '\(expected)'): dropped"
    case .wrongLength(let count):
      return "UBX-\(type) with a payload of \(count) bytes, a length it cannot have: NAK'd"
    }
  }
}
