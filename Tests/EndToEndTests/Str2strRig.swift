import Foundation
import Glibc
import MockGPSTestSupport
import Receiver
import UBX

/// Two F9Ps of one `--config`, RTKLIB's `str2str` carrying the first's RTCM 3 from its tty to
/// the second's, as a base's radio or a vehicle's cable does, and the second's output read
/// from its TCP port (str2str also reads the tty it writes). Used by the base + rover and the
/// moving base process tests.
struct Str2strRig {
  /// What the rover sent: its UBX frames and its GGA qualities.
  var frames: [UBXFrame] = []
  var qualities: [String] = []

  /// Runs `base` and `rover` (JSON device objects; the rover's must serve TCP on `port`), the
  /// relay between them, enables NAV-PVT and NAV-RELPOSNED on the rover's UART1 (again every
  /// 3 s until NAV-PVT comes: a write a loaded machine's chip missed), and reads the rover for
  /// up to 60 s until `done` says the frames read are enough.
  static func run(
    str2str: String, base: String, rover: String, port: Int, in directory: ScratchDirectory,
    roverLink: String, until done: ([UBXFrame]) -> Bool
  ) throws -> Str2strRig {
    let fleet = try MockGPSBinary.startFleet([base, rover], in: directory, seconds: 20)
    defer { fleet.kill() }
    let slaves = fleet.standardOutput.split(whereSeparator: \.isWhitespace).filter {
      $0.hasPrefix("/dev/pts/")
    }
    guard slaves.count == 2 else {
      throw TestFailure("two devices expected: \(fleet.standardOutput)\(fleet.standardError)")
    }
    // RTKLIB opens serial://PORT as /dev/PORT.
    let relay = try TestProcess(
      str2str,
      [
        "-in", "serial://\(slaves[0].dropFirst(5)):115200",
        "-out", "serial://\(slaves[1].dropFirst(5)):115200",
      ])
    defer { relay.kill() }
    guard let socket = DescriptorLimitProcessTests.connect(port: UInt16(port)) else {
      throw TestFailure("the rover's TCP port \(port) does not answer")
    }
    defer { close(socket) }
    let enable = UBXValueSet.frame([
      UBXConfigurationItem(key: UBXConfigurationKey(0x2091_0007), value: 1),
      UBXConfigurationItem(key: UBXConfigurationKey(0x2091_008E), value: 1),
    ])
    let writer = open(roverLink, O_WRONLY | O_NOCTTY)
    guard writer >= 0 else { throw TestFailure("cannot open \(roverLink)") }
    defer { close(writer) }
    var rig = Str2strRig()
    var enabledAt = Date.distantPast
    var demultiplexer = InputDemultiplexer()
    let deadline = Date().addingTimeInterval(60)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while Date() < deadline, !done(rig.frames) {
      if !rig.frames.contains(where: { $0.messageType == .navPVT }),
        Date().timeIntervalSince(enabledAt) > 3
      {
        _ = enable.bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        enabledAt = Date()
      }
      var pollRequest = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      guard poll(&pollRequest, 1, 500) > 0 else { continue }
      let count = read(socket, &buffer, buffer.count)
      guard count > 0 else { break }
      for message in demultiplexer.append(buffer[0..<count]) {
        switch message {
        case .ubx(let frame): rig.frames.append(frame)
        case .nmea(let line) where line.dropFirst(3).hasPrefix("GGA"):
          rig.qualities.append(
            String(line.split(separator: ",", omittingEmptySubsequences: false)[6]))
        default: break
        }
      }
    }
    return rig
  }
}
