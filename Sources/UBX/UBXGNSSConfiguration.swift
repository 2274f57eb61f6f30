/// UBX-CFG-GNSS: the systems a receiver tracks and the channels each may use.
///
///     msgVer U1 | numTrkChHw U1 | numTrkChUse U1 | numConfigBlocks U1 |
///     numConfigBlocks × (gnssId U1 | resTrkCh U1 | maxTrkCh U1 | reserved U1 | flags X4)
///
/// A setting changes the systems it lists and keeps the others. The receiver refuses it when,
/// after applying it: no major system (GPS, Galileo, BeiDou, GLONASS) is enabled, more major
/// systems are enabled than it tracks at once, an enabled major system has fewer than 4 channels,
/// a system's maximum is below its reservation, or the reservations exceed the channels in use
/// (receiver description, UBX-CFG-GNSS).
public struct UBXGNSSConfiguration: Hashable, Sendable {
  /// One system's block.
  public struct Block: Hashable, Sendable {
    public var gnssID: UInt8
    public var reservedChannels: UInt8
    public var maximumChannels: UInt8
    public var flags: UInt32

    /// Creates a block.
    public init(gnssID: UInt8, reservedChannels: UInt8, maximumChannels: UInt8, flags: UInt32) {
      self.gnssID = gnssID
      self.reservedChannels = reservedChannels
      self.maximumChannels = maximumChannels
      self.flags = flags
    }

    /// True when the enable bit is set.
    public var isEnabled: Bool { flags & 1 != 0 }
  }

  /// The major systems: GPS, Galileo, BeiDou, GLONASS.
  public static let majorSystems: Set<UInt8> = [0, 2, 3, 6]
  /// The system IDs of the u-blox 8: GPS, SBAS, Galileo, BeiDou, IMES, QZSS, GLONASS.
  public static let systems: ClosedRange<UInt8> = 0...6

  public var hardwareChannels: UInt8
  public var channelsInUse: UInt8
  public var blocks: [Block]

  /// Creates a configuration.
  public init(hardwareChannels: UInt8, channelsInUse: UInt8, blocks: [Block]) {
    self.hardwareChannels = hardwareChannels
    self.channelsInUse = channelsInUse
    self.blocks = blocks
  }

  /// Reads a CFG-GNSS payload; nil when its length does not match its block count.
  public init?(payload: [UInt8]) {
    guard payload.count >= 4, payload.count == 4 + 8 * Int(payload[3]) else { return nil }
    var reader = UBXPayloadReader(Array(payload[4...]))
    var blocks: [Block] = []
    while let id = reader.u1(), let reserved = reader.u1(), let maximum = reader.u1(),
      reader.u1() != nil, let flags = reader.u4()
    {
      blocks.append(
        Block(gnssID: id, reservedChannels: reserved, maximumChannels: maximum, flags: flags))
    }
    self.init(hardwareChannels: payload[1], channelsInUse: payload[2], blocks: blocks)
  }

  /// The CFG-GNSS payload.
  public var payload: [UInt8] {
    var writer = UBXPayloadWriter()
    writer.u1(0)
    writer.u1(hardwareChannels)
    writer.u1(channelsInUse)
    writer.u1(UInt8(clamping: blocks.count))
    for block in blocks {
      writer.u1(block.gnssID)
      writer.u1(block.reservedChannels)
      writer.u1(block.maximumChannels)
      writer.u1(0)
      writer.u4(block.flags)
    }
    return writer.bytes
  }

  /// This configuration with `setting` applied, checked against the receiver's rules.
  ///
  /// - Parameter majorSystemLimit: how many major systems the receiver tracks at once (3 for
  ///   the u-blox M8).
  /// - Throws: `UBXConfigurationError` naming the rule broken.
  public func applying(_ setting: UBXGNSSConfiguration, majorSystemLimit: Int)
    throws(UBXConfigurationError) -> UBXGNSSConfiguration
  {
    var merged = self
    let inUse = setting.channelsInUse == 0xFF ? hardwareChannels : setting.channelsInUse
    guard inUse > 0, inUse <= hardwareChannels else {
      throw .outOfRange(.cfgGNSS, field: "numTrkChUse", value: UInt64(setting.channelsInUse))
    }
    merged.channelsInUse = inUse
    for block in setting.blocks {
      guard Self.systems.contains(block.gnssID) else {
        throw .outOfRange(.cfgGNSS, field: "gnssId", value: UInt64(block.gnssID))
      }
      if let index = merged.blocks.firstIndex(where: { $0.gnssID == block.gnssID }) {
        merged.blocks[index] = block
      } else {
        merged.blocks.append(block)
      }
    }
    try merged.check(majorSystemLimit: majorSystemLimit)
    return merged
  }

  /// Checks the rules of the receiver description.
  func check(majorSystemLimit: Int) throws(UBXConfigurationError) {
    let majors = blocks.filter { $0.isEnabled && Self.majorSystems.contains($0.gnssID) }
    guard !majors.isEmpty else {
      throw .inconsistent(.cfgGNSS, reason: "at least one major GNSS must be enabled")
    }
    guard majors.count <= majorSystemLimit else {
      throw .inconsistent(
        .cfgGNSS, reason: "\(majors.count) major GNSS enabled, at most \(majorSystemLimit)")
    }
    if let short = majors.first(where: { $0.maximumChannels < 4 }) {
      throw .outOfRange(.cfgGNSS, field: "maxTrkCh", value: UInt64(short.maximumChannels))
    }
    if let block = blocks.first(where: { $0.maximumChannels < $0.reservedChannels }) {
      throw .outOfRange(.cfgGNSS, field: "maxTrkCh", value: UInt64(block.maximumChannels))
    }
    let reserved = blocks.reduce(0) { $0 + Int($1.reservedChannels) }
    guard reserved <= Int(channelsInUse) else {
      throw .inconsistent(
        .cfgGNSS, reason: "\(reserved) reserved channels exceed \(channelsInUse) in use")
    }
  }
}
