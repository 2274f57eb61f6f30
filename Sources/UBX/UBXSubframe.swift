/// UBX-RXM-SFRBX: one navigation data subframe as the receiver decoded it, version 2 (ZED-F9P
/// interface description, 3.16.10). GPS L1 C/A subframes are ten 30-bit words, each in the low
/// 30 bits of a `U4`: 24 data bits then 6 parity bits.
public struct UBXSubframe: Hashable, Sendable {
  public var system: UBXSatellite.System
  public var number: Int
  /// The u-blox signal ID (0 for GPS L1 C/A).
  public var signalID: Int
  /// GLONASS frequency slot + 7; 0 for the other systems.
  public var frequencyID: Int
  /// The tracking channel.
  public var channel: Int
  /// The data words.
  public var words: [UInt32]

  /// Creates the message.
  public init(
    system: UBXSatellite.System, number: Int, signalID: Int = 0, frequencyID: Int = 0,
    channel: Int, words: [UInt32]
  ) {
    self.system = system
    self.number = number
    self.signalID = signalID
    self.frequencyID = frequencyID
    self.channel = channel
    self.words = words
  }

  /// The frame.
  public var frame: UBXFrame {
    var writer = UBXPayloadWriter(capacity: 8 + 4 * words.count)
    writer.fields(byteCount: 8 + 4 * words.count) { fields in
      fields.u1(system.rawValue)
      fields.u1(UInt8(clamping: number))
      fields.u1(UInt8(clamping: signalID))
      fields.u1(UInt8(clamping: frequencyID))
      fields.u1(UInt8(clamping: words.count))
      fields.u1(UInt8(clamping: channel))
      fields.u1(2)  // version
      fields.zeros(1)
      for word in words { fields.u4(word) }
    }
    return UBXFrame(.rxmSFRBX, payload: writer.bytes)
  }
}
