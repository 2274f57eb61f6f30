/// The state of a u-blox chip's antenna and RF front end, as MON-HW, MON-HW2 (u-blox 8) and
/// MON-RF (u-blox 9) report it.
///
/// Layouts follow the u-blox 8 / M8 receiver description (MON-HW 60 bytes, MON-HW2 28 bytes)
/// and the ZED-F9P interface description (MON-RF, 4 bytes then 24 per RF block).
public struct UBXRadioStatus: Hashable, Sendable {
  /// The antenna supervisor's view of the antenna (`aStatus`, `antStatus`).
  public enum AntennaStatus: UInt8, Hashable, Sendable {
    case initializing = 0
    case unknown = 1
    case ok = 2
    case short = 3
    case open = 4
  }

  /// Whether the antenna is powered (`aPower`, `antPower`).
  public enum AntennaPower: UInt8, Hashable, Sendable {
    case off = 0
    case on = 1
    case unknown = 2
  }

  /// One RF block's front end: L1, or L2/L5 on a dual-band chip.
  public struct Block: Hashable, Sendable {
    /// Noise level as measured by the GPS core (`noisePerMS`).
    public var noisePerMillisecond: UInt16
    /// Automatic gain control count, 0–8191 (`agcCnt`).
    public var gainControlCount: UInt16
    /// Continuous-wave jamming indicator, 0 (none) to 255 (strong) (`jamInd`).
    public var jammingIndicator: UInt8
    /// I and Q imbalance: offsets (`ofsI`, `ofsQ`) and magnitudes (`magI`, `magQ`).
    public var offsetI: Int8
    public var magnitudeI: UInt8
    public var offsetQ: Int8
    public var magnitudeQ: UInt8

    /// Creates a block.
    public init(
      noisePerMillisecond: UInt16, gainControlCount: UInt16, jammingIndicator: UInt8,
      offsetI: Int8, magnitudeI: UInt8, offsetQ: Int8, magnitudeQ: UInt8
    ) {
      self.noisePerMillisecond = noisePerMillisecond
      self.gainControlCount = gainControlCount
      self.jammingIndicator = jammingIndicator
      self.offsetI = offsetI
      self.magnitudeI = magnitudeI
      self.offsetQ = offsetQ
      self.magnitudeQ = magnitudeQ
    }
  }

  public var antennaStatus: AntennaStatus
  public var antennaPower: AntennaPower
  /// The RF blocks, the first one L1; MON-HW and MON-HW2 report the first.
  public var blocks: [Block]

  /// Creates a status.
  public init(antennaStatus: AntennaStatus, antennaPower: AntennaPower, blocks: [Block]) {
    self.antennaStatus = antennaStatus
    self.antennaPower = antennaPower
    self.blocks = blocks
  }

  /// The jamming state of every block: 1, "OK, no significant jamming" (bits 2–3 of MON-HW's
  /// flags, bits 0–1 of MON-RF's).
  static let jammingStateOK: UInt8 = 1

  /// The first block, or a silent one when there is none.
  private var first: Block {
    blocks.first
      ?? Block(
        noisePerMillisecond: 0, gainControlCount: 0, jammingIndicator: 0, offsetI: 0,
        magnitudeI: 0, offsetQ: 0, magnitudeQ: 0)
  }

  /// UBX-MON-HW (0x0A 0x09), 60 bytes: pins, noise, AGC, antenna, jamming of the first block.
  ///
  /// Flags: RTC calibrated, jamming state OK. The pin fields are those of a module with its
  /// antenna supervisor pins in their default functions.
  public var monHW: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u4(0x0000_EFFF)  // pinSel
    payload.u4(0)  // pinBank
    payload.u4(0x0001_0000)  // pinDir
    payload.u4(0x0001_EF7E)  // pinVal
    payload.u2(first.noisePerMillisecond)
    payload.u2(first.gainControlCount)
    payload.u1(antennaStatus.rawValue)
    payload.u1(antennaPower.rawValue)
    payload.u1(0x01 | Self.jammingStateOK << 2)
    payload.u1(0)
    payload.u4(0x0001_FFFF)  // usedMask
    for virtualPin: UInt8 in [
      0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x01, 0x00, 0x02, 0x03, 0xFF, 0x10, 0xFF, 0x12, 0x13,
      0x36, 0x35,
    ] {
      payload.u1(virtualPin)
    }
    payload.u1(first.jammingIndicator)
    payload.zeros(2)
    payload.u4(0)  // pinIrq
    payload.u4(0x0001_EFFF)  // pullH
    payload.u4(0)  // pullL
    return UBXFrame(.monHW, payload: payload.bytes)
  }

  /// UBX-MON-HW2 (0x0A 0x0B), 28 bytes (u-blox 8): I/Q imbalance of the first block, the
  /// low-level configuration from OTP (`cfgSource` 'o'), no POST error.
  public var monHW2: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.i1(first.offsetI)
    payload.u1(first.magnitudeI)
    payload.i1(first.offsetQ)
    payload.u1(first.magnitudeQ)
    payload.u1(UInt8(ascii: "o"))
    payload.zeros(3)
    payload.u4(0xFFFF_FFFF)  // lowLevCfg
    payload.zeros(8)
    payload.u4(0)  // postStatus
    payload.zeros(4)
    return UBXFrame(.monHW2, payload: payload.bytes)
  }

  /// UBX-MON-RF (0x0A 0x38), u-blox 9: version 0, then 24 bytes per RF block.
  public var monRF: UBXFrame {
    let listed = blocks.prefix(255)
    var payload = UBXPayloadWriter()
    payload.u1(0)
    payload.u1(UInt8(listed.count))
    payload.zeros(2)
    for (id, block) in listed.enumerated() {
      payload.u1(UInt8(id))
      payload.u1(Self.jammingStateOK)
      payload.u1(antennaStatus.rawValue)
      payload.u1(antennaPower.rawValue)
      payload.u4(0)  // postStatus
      payload.zeros(4)
      payload.u2(block.noisePerMillisecond)
      payload.u2(block.gainControlCount)
      payload.u1(block.jammingIndicator)
      payload.i1(block.offsetI)
      payload.u1(block.magnitudeI)
      payload.i1(block.offsetQ)
      payload.u1(block.magnitudeQ)
      payload.zeros(3)
    }
    return UBXFrame(.monRF, payload: payload.bytes)
  }
}
