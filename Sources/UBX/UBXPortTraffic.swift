/// What a u-blox chip's ports have received and sent, as MON-MSGPP, MON-RXBUF, MON-TXBUF and
/// (u-blox 9) MON-COMMS report it.
///
/// Ports are numbered as u-blox numbers them: 0 I2C (DDC), 1 UART1, 2 UART2, 3 USB, 4 SPI;
/// MON-MSGPP and the buffer messages have six slots, the last one reserved. Layouts follow the
/// u-blox 8 / M8 receiver description and the ZED-F9P interface description.
public struct UBXPortTraffic: Hashable, Sendable {
  /// One port's counters.
  public struct Port: Hashable, Sendable {
    /// UBX messages received and parsed.
    public var ubxMessages = 0
    /// NMEA messages received and parsed.
    public var nmeaMessages = 0
    /// Bytes received.
    public var receivedBytes = 0
    /// Bytes sent.
    public var sentBytes = 0
    /// Bytes received that were part of no message the port parses (noise, bad frames).
    public var skippedBytes = 0
    /// The transmit buffer's use now and at its peak, percent.
    public var transmitUsagePercent = 0
    public var transmitPeakUsagePercent = 0

    /// A port that has seen no traffic.
    public init() {}
  }

  /// The slots of MON-MSGPP, MON-RXBUF and MON-TXBUF.
  public static let portSlots = 6
  /// UART1's number.
  public static let uart1 = 1

  /// The ports by number; a number not listed has seen no traffic.
  public var ports: [Int: Port]

  /// Creates traffic counters.
  public init(ports: [Int: Port] = [:]) {
    self.ports = ports
  }

  private func port(_ number: Int) -> Port { ports[number] ?? Port() }

  /// UBX-MON-MSGPP (0x0A 0x06), 120 bytes: per port, messages parsed per protocol (UBX, NMEA,
  /// then six unused), then bytes skipped per port.
  public var monMSGPP: UBXFrame {
    var payload = UBXPayloadWriter()
    for number in 0..<Self.portSlots {
      let counters = port(number)
      payload.u2(UInt16(clamping: counters.ubxMessages))
      payload.u2(UInt16(clamping: counters.nmeaMessages))
      payload.zeros(12)
    }
    for number in 0..<Self.portSlots {
      payload.u4(UInt32(clamping: port(number).skippedBytes))
    }
    return UBXFrame(.monMSGPP, payload: payload.bytes)
  }

  /// UBX-MON-RXBUF (0x0A 0x07), 24 bytes: nothing pending, the receive buffers empty (each
  /// message is handled as it arrives).
  public var monRXBUF: UBXFrame {
    UBXFrame(.monRXBUF, payload: Array(repeating: 0, count: 4 * Self.portSlots))
  }

  /// UBX-MON-TXBUF (0x0A 0x08), 28 bytes: nothing pending, each port's usage and peak, the
  /// total usage and peak, no errors.
  public var monTXBUF: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.zeros(2 * Self.portSlots)
    for number in 0..<Self.portSlots {
      payload.u1(UInt8(clamping: port(number).transmitUsagePercent))
    }
    for number in 0..<Self.portSlots {
      payload.u1(UInt8(clamping: port(number).transmitPeakUsagePercent))
    }
    payload.u1(UInt8(clamping: ports.values.map(\.transmitUsagePercent).max() ?? 0))
    payload.u1(UInt8(clamping: ports.values.map(\.transmitPeakUsagePercent).max() ?? 0))
    payload.u1(0)  // errors
    payload.u1(0)
    return UBXFrame(.monTXBUF, payload: payload.bytes)
  }

  /// The `portId` of MON-COMMS for u-blox port numbers 0–4 (I2C, UART1, UART2, USB, SPI).
  static let communicationPortIDs: [UInt16] = [0x0000, 0x0100, 0x0201, 0x0300, 0x0400]

  /// UBX-MON-COMMS (0x0A 0x36), u-blox 9: 8 bytes, then 40 per port (I2C, UART1, UART2, USB,
  /// SPI), messages counted for UBX, NMEA and RTCM3.
  public var monCOMMS: UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u1(0)  // version
    payload.u1(UInt8(Self.communicationPortIDs.count))
    payload.u1(0)  // txErrors
    payload.u1(0)
    for protocolID: UInt8 in [0, 1, 5, 0xFF] { payload.u1(protocolID) }
    for (number, portID) in Self.communicationPortIDs.enumerated() {
      let counters = port(number)
      payload.u2(portID)
      payload.u2(0)  // txPending
      payload.u4(UInt32(clamping: counters.sentBytes))
      payload.u1(UInt8(clamping: counters.transmitUsagePercent))
      payload.u1(UInt8(clamping: counters.transmitPeakUsagePercent))
      payload.u2(0)  // rxPending
      payload.u4(UInt32(clamping: counters.receivedBytes))
      payload.u1(0)  // rxUsage
      payload.u1(0)  // rxPeakUsage
      payload.u2(0)  // overrunErrs
      payload.u2(UInt16(clamping: counters.ubxMessages))
      payload.u2(UInt16(clamping: counters.nmeaMessages))
      payload.zeros(4)  // RTCM3 and the unused slot
      payload.zeros(8)
      payload.u4(UInt32(clamping: counters.skippedBytes))
    }
    return UBXFrame(.monCOMMS, payload: payload.bytes)
  }
}
