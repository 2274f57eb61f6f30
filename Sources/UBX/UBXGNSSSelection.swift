/// The major GNSS of a u-blox chip, as UBX-MON-GNSS (0x0A 0x28) reports them: those it
/// supports, those enabled by default, those enabled now, and how many it tracks at once.
///
///     version U1 | supported X1 | defaultGnss X1 | enabled X1 | simultaneous U1 | reserved U1[3]
public struct UBXGNSSSelection: Hashable, Sendable {
  /// The major GNSS, by their bits in MON-GNSS's masks.
  public struct Systems: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let gps = Systems(rawValue: 0x01)
    public static let glonass = Systems(rawValue: 0x02)
    public static let beidou = Systems(rawValue: 0x04)
    public static let galileo = Systems(rawValue: 0x08)
  }

  public var supported: Systems
  public var enabledByDefault: Systems
  public var enabled: Systems
  /// The most major GNSS tracked at once.
  public var simultaneous: Int

  /// Creates a selection.
  public init(supported: Systems, enabledByDefault: Systems, enabled: Systems, simultaneous: Int) {
    self.supported = supported
    self.enabledByDefault = enabledByDefault
    self.enabled = enabled
    self.simultaneous = simultaneous
  }

  /// The MON-GNSS frame, version 0, 8 bytes.
  public var frame: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u1(0)
    payload.u1(supported.rawValue)
    payload.u1(enabledByDefault.rawValue)
    payload.u1(enabled.rawValue)
    payload.u1(UInt8(clamping: simultaneous))
    payload.zeros(3)
    return UBXFrame(.monGNSS, payload: payload.bytes)
  }
}
