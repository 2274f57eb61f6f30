import Simulation
import UBX

/// What a u-blox chip's MON messages report: its radio front end, the GNSS it tracks, and the
/// traffic its UART1 has received; the state the poll path of `UbloxCommandHandler` keeps.
///
/// The radio figures are those of a healthy chip under open sky: antenna as the power-up
/// banner says (an M8 with an active antenna "OK", a ZED-F9P without supervisor "don't
/// know"), noise levels and AGC counts in the range u-center shows for such chips, and a
/// jamming indicator near zero.
struct UbloxMonitor: Hashable, Sendable {
  /// The chip's front end.
  var radio: UBXRadioStatus
  /// The major GNSS.
  var gnss: UBXGNSSSelection
  /// What UART1 has received from clients and sent.
  var traffic = UBXPortTraffic()
  /// True once the device reports the line's byte counts (`noteLine`): messages then count
  /// no bytes of their own.
  var countsLineBytes = false

  /// The monitor of a profile's chip at power-up.
  init(profile: ReceiverProfile) {
    let isNinth = profile.commandSet == .ubloxF9
    radio =
      isNinth
      ? UBXRadioStatus(
        antennaStatus: .unknown, antennaPower: .unknown,
        blocks: [
          .init(
            noisePerMillisecond: 86, gainControlCount: 6_480, jammingIndicator: 11, offsetI: 2,
            magnitudeI: 148, offsetQ: -1, magnitudeQ: 152),
          .init(
            noisePerMillisecond: 57, gainControlCount: 7_120, jammingIndicator: 3, offsetI: -3,
            magnitudeI: 139, offsetQ: 1, magnitudeQ: 141),
        ])
      : UBXRadioStatus(
        antennaStatus: .ok, antennaPower: .on,
        blocks: [
          .init(
            noisePerMillisecond: 92, gainControlCount: 3_880, jammingIndicator: 6, offsetI: 4,
            magnitudeI: 143, offsetQ: -2, magnitudeQ: 147)
        ])
    let all: UBXGNSSSelection.Systems = [.gps, .glonass, .beidou, .galileo]
    gnss = UBXGNSSSelection(
      supported: all, enabledByDefault: isNinth ? all : [.gps, .glonass],
      enabled: Self.systems(profile.defaultConstellations),
      simultaneous: profile.tracking.concurrentLimit)
  }

  /// Counts a message a client wrote to UART1.
  mutating func note(received message: ClientMessage) {
    var port = traffic.ports[UBXPortTraffic.uart1] ?? UBXPortTraffic.Port()
    switch message {
    case .ubx(let frame):
      port.ubxMessages += 1
      if !countsLineBytes { port.receivedBytes += frame.bytes.count }
    case .nmea(let line):
      port.nmeaMessages += 1
      if !countsLineBytes { port.receivedBytes += line.utf8.count + 2 }
    case .sirf:
      // Another chip's protocol: the u-blox counts its bytes as skipped, not as messages.
      return
    case .rtcm(let event):
      guard case .frame(let frame) = event else { return }
      port.receivedBytes += frame.bytes.count
    }
    traffic.ports[UBXPortTraffic.uart1] = port
  }

  /// Takes UART1's byte counts from the device that carries it: received, skipped, sent.
  mutating func noteLine(receivedBytes: Int, skippedBytes: Int, sentBytes: Int) {
    countsLineBytes = true
    var port = traffic.ports[UBXPortTraffic.uart1] ?? UBXPortTraffic.Port()
    port.receivedBytes = receivedBytes
    port.skippedBytes = skippedBytes
    port.sentBytes = sentBytes
    traffic.ports[UBXPortTraffic.uart1] = port
  }

  /// MON-GNSS's mask of a set of constellations.
  static func systems(_ constellations: Set<Constellation>) -> UBXGNSSSelection.Systems {
    var systems: UBXGNSSSelection.Systems = []
    for constellation in constellations {
      switch constellation {
      case .gps: systems.insert(.gps)
      case .glonass: systems.insert(.glonass)
      case .galileo: systems.insert(.galileo)
      case .beidou: systems.insert(.beidou)
      case .sbas: break  // MON-GNSS has bits for the major systems only
      }
    }
    return systems
  }
}
