/// UBX-CFG-CFG: clears, saves and loads configuration sections in the receiver's non-volatile
/// layers, in that order.
///
///     clearMask X4 | saveMask X4 | loadMask X4 | deviceMask X1 (optional)    (12 or 13 bytes)
public struct UBXStorageCommand: Hashable, Sendable {
  /// The layers a command acts on (`deviceMask`).
  public struct Devices: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    /// Creates a mask.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Battery-backed RAM.
    public static let batteryBackedRAM = Devices(rawValue: 0x01)
    /// Flash.
    public static let flash = Devices(rawValue: 0x02)
    /// EEPROM.
    public static let eeprom = Devices(rawValue: 0x04)
    /// SPI flash.
    public static let spiFlash = Devices(rawValue: 0x10)
    /// Every device: what a 12-byte command without a device mask means.
    public static let all: Devices = [.batteryBackedRAM, .flash, .eeprom, .spiFlash]
  }

  public var clear: UBXConfigurationSections
  public var save: UBXConfigurationSections
  public var load: UBXConfigurationSections
  public var devices: Devices

  /// Creates a command.
  public init(
    clear: UBXConfigurationSections = [], save: UBXConfigurationSections = [],
    load: UBXConfigurationSections = [], devices: Devices = .all
  ) {
    self.clear = clear
    self.save = save
    self.load = load
    self.devices = devices
  }

  /// Reads a 12- or 13-byte CFG-CFG payload.
  ///
  /// - Throws: `UBXConfigurationError.wrongLength` for any other length.
  public init(payload: [UInt8]) throws(UBXConfigurationError) {
    var reader = UBXPayloadReader(payload)
    guard payload.count == 12 || payload.count == 13, let clear = reader.u4(),
      let save = reader.u4(), let load = reader.u4()
    else { throw .wrongLength(.cfgCFG, count: payload.count) }
    self.init(
      clear: UBXConfigurationSections(rawValue: clear),
      save: UBXConfigurationSections(rawValue: save),
      load: UBXConfigurationSections(rawValue: load),
      devices: reader.u1().map(Devices.init(rawValue:)) ?? .all)
  }

  /// The 13-byte CFG-CFG frame.
  public var frame: UBXFrame {
    var writer = UBXPayloadWriter()
    writer.u4(clear.rawValue)
    writer.u4(save.rawValue)
    writer.u4(load.rawValue)
    writer.u1(devices.rawValue)
    return UBXFrame(.cfgCFG, payload: writer.bytes)
  }
}

/// UBX-CFG-RST: what the receiver forgets and how it restarts. The receiver does not
/// acknowledge it (receiver description: "do not expect this message to be acknowledged").
///
///     navBbrMask X2 | resetMode U1 | reserved U1                               (4 bytes)
public struct UBXResetCommand: Hashable, Sendable {
  /// How the receiver restarts (`resetMode`).
  public enum Mode: UInt8, Hashable, Sendable {
    /// Hardware reset (watchdog) immediately.
    case hardwareImmediately = 0x00
    /// Controlled software reset.
    case software = 0x01
    /// Controlled software reset of the GNSS part only.
    case gnssOnly = 0x02
    /// Hardware reset (watchdog) after shutdown.
    case hardwareAfterShutdown = 0x04
    /// Controlled GNSS stop.
    case gnssStop = 0x08
    /// Controlled GNSS start.
    case gnssStart = 0x09
  }

  /// The backup data to clear: 0x0000 hot start, 0x0001 warm start, 0xFFFF cold start, or any
  /// combination of eph (bit 0), alm (1), health (2), klob (3), pos (4), clkd (5), osc (6),
  /// utc (7), rtc (8), aop (15).
  public var clearedData: UInt16
  /// How to restart; nil for a reset mode the receiver description does not define.
  public var mode: Mode?

  /// Creates a command.
  public init(clearedData: UInt16, mode: Mode) {
    self.clearedData = clearedData
    self.mode = mode
  }

  /// Reads a 4-byte CFG-RST payload.
  ///
  /// - Throws: `UBXConfigurationError.wrongLength` for any other length.
  public init(payload: [UInt8]) throws(UBXConfigurationError) {
    guard payload.count == 4 else { throw .wrongLength(.cfgRST, count: payload.count) }
    clearedData = UInt16(payload[0]) | UInt16(payload[1]) << 8
    mode = Mode(rawValue: payload[2])
  }

  /// The CFG-RST frame.
  public var frame: UBXFrame {
    UBXFrame(
      .cfgRST,
      payload: [
        UInt8(truncatingIfNeeded: clearedData), UInt8(truncatingIfNeeded: clearedData >> 8),
        mode?.rawValue ?? 0xFF, 0,
      ])
  }
}
