/// UBX-CFG-PRT for a UART: its line speed and which protocols it reads and writes.
///
///     portID U1 | reserved U1 | txReady X2 | mode X4 | baudRate U4 | inProtoMask X2 |
///     outProtoMask X2 | flags X2 | reserved U2                                   (20 bytes)
public struct UBXPortConfiguration: Hashable, Sendable {
  /// Bits of the protocol masks.
  public struct Protocols: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    /// Creates a mask.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static let ubx = Protocols(rawValue: 0x01)
    public static let nmea = Protocols(rawValue: 0x02)
    public static let rtcm2 = Protocols(rawValue: 0x04)
    public static let rtcm3 = Protocols(rawValue: 0x20)
  }

  /// The first UART, the port a serial receiver's client talks to.
  public static let uart1: UInt8 = 1
  /// 8 data bits, no parity, 1 stop bit (`mode`).
  public static let mode8N1: UInt32 = 0x0000_08D0

  public var portID: UInt8
  /// TX-ready pin settings (`txReady`).
  public var txReady: UInt16
  public var mode: UInt32
  public var baud: Int
  public var inProtocols: Protocols
  public var outProtocols: Protocols
  public var flags: UInt16

  /// Creates a port configuration.
  public init(
    portID: UInt8 = uart1, txReady: UInt16 = 0, mode: UInt32 = mode8N1, baud: Int,
    inProtocols: Protocols, outProtocols: Protocols, flags: UInt16 = 0
  ) {
    self.portID = portID
    self.txReady = txReady
    self.mode = mode
    self.baud = baud
    self.inProtocols = inProtocols
    self.outProtocols = outProtocols
    self.flags = flags
  }

  /// Reads a 20-byte CFG-PRT payload; nil for any other length.
  public init?(payload: [UInt8]) {
    guard payload.count == 20 else { return nil }
    var reader = UBXPayloadReader(payload)
    guard let portID = reader.u1(), reader.u1() != nil, let txReady = reader.u2(),
      let mode = reader.u4(),
      let baud = reader.u4(), let inMask = reader.u2(), let outMask = reader.u2(),
      let flags = reader.u2()
    else { return nil }
    self.init(
      portID: portID, txReady: txReady, mode: mode, baud: Int(baud),
      inProtocols: Protocols(rawValue: inMask),
      outProtocols: Protocols(rawValue: outMask), flags: flags)
  }

  /// The CFG-PRT frame (a poll's answer).
  public var frame: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u1(portID)
    payload.u1(0)
    payload.u2(txReady)
    payload.u4(mode)
    payload.u4(UInt32(clamping: baud))
    payload.u2(inProtocols.rawValue)
    payload.u2(outProtocols.rawValue)
    payload.u2(flags)
    payload.u2(0)
    return UBXFrame(.cfgPRT, payload: payload.bytes)
  }
}
