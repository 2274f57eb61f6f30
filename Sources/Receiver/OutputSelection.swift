import UBX

/// What the receiver sends each navigation epoch, as its profile starts and as clients
/// reconfigure it (PMTK314, UBX-CFG-MSG, CFG-PRT, CFG-VALSET).
///
/// Rates follow the chips: a message with rate N goes out every N-th navigation epoch (the
/// epochs whose index is a multiple of N); a rate of 0 or no entry switches it off.
public struct OutputSelection: Hashable, Sendable {
  /// NMEA sentence types, named without talker (`"GGA"`, `"GSV"`), and their rates.
  public var nmea: [String: Int]
  /// UBX messages and their rates.
  public var ubx: [UBXMessageType: Int]
  /// The port sends NMEA at all (the output protocol mask of UBX-CFG-PRT).
  public var nmeaProtocolEnabled: Bool
  /// The port sends UBX at all.
  public var ubxProtocolEnabled: Bool
  /// SiRF binary messages (by message ID) and their rates, sent while `sirfProtocolEnabled`.
  public var sirf: [UInt8: Int] = [:]
  /// The port speaks SiRF binary (after `$PSRF100,0,…`) instead of NMEA.
  public var sirfProtocolEnabled = false

  /// Creates a selection.
  public init(
    nmea: [String: Int], ubx: [UBXMessageType: Int] = [:], nmeaProtocolEnabled: Bool = true,
    ubxProtocolEnabled: Bool = true
  ) {
    self.nmea = nmea
    self.ubx = ubx
    self.nmeaProtocolEnabled = nmeaProtocolEnabled
    self.ubxProtocolEnabled = ubxProtocolEnabled
  }

  /// Every sentence type in `types` at rate 1, no UBX.
  public init(nmeaEveryEpoch types: some Sequence<String>) {
    self.init(nmea: Dictionary(uniqueKeysWithValues: Set(types).map { ($0, 1) }))
  }

  /// True when the NMEA sentence type goes out in the epoch with this index.
  public func sends(nmea type: String, epochIndex: Int) -> Bool {
    Self.isDue(rate: nmeaRate(of: type), epochIndex: epochIndex)
  }

  /// The rate the NMEA sentence type goes out at; 0 when it is off, or NMEA is.
  func nmeaRate(of type: String) -> Int {
    nmeaProtocolEnabled ? nmea[type] ?? 0 : 0
  }

  /// True when the UBX message goes out in the epoch with this index.
  public func sends(ubx type: UBXMessageType, epochIndex: Int) -> Bool {
    guard ubxProtocolEnabled, let rate = ubx[type] else { return false }
    return Self.isDue(rate: rate, epochIndex: epochIndex)
  }

  /// True when the RTCM 3 message of this CFG-MSG type (class 0xF5, `ubx` holds its rate) goes
  /// out: UBX's output protocol does not gate it (CFG-UART1OUTPROT-RTCM3X is not modelled, and
  /// is on by default).
  public func sends(rtcm type: UBXMessageType, epochIndex: Int) -> Bool {
    guard let rate = ubx[type] else { return false }
    return Self.isDue(rate: rate, epochIndex: epochIndex)
  }

  /// True when the SiRF binary message goes out in the epoch with this index.
  public func sends(sirf id: UInt8, epochIndex: Int) -> Bool {
    guard sirfProtocolEnabled, let rate = sirf[id] else { return false }
    return Self.isDue(rate: rate, epochIndex: epochIndex)
  }

  /// A rate above zero is due in every epoch whose index is a multiple of it.
  static func isDue(rate: Int, epochIndex: Int) -> Bool {
    rate > 0 && epochIndex % rate == 0
  }
}
