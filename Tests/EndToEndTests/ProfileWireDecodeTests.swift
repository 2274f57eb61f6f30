import Foundation
import Glibc
import MockGPSTestSupport
import Receiver
import TestFixtures
import Testing
import UBX

/// What each profile sends on the device, under the orbital sky and the geoid, read raw from the
/// pseudo-terminal and decoded by independent parsers from PyPI: pynmeagps for NMEA
/// (`Tests/Tools/decode_nmea.py`), pyubx2 for UBX (`Tests/Tools/decode_ubx.py`). No line or
/// frame is rejected, and the decoded positions and satellites are the emitted ones; for u-blox,
/// the UBX switched on through the device carries the same fix and sky as the NMEA beside it.
@Suite(.blocking, .serialized) struct ProfileWireDecodeTests {
  static let (latitude, longitude, altitude) = (47.376887, 8.541694, 408.0)

  @Test(.timeLimit(.minutes(10)), arguments: ReceiverProfile.all.map(\.name))
  func independentDecodersReadTheDeviceOutputAsTheEmittedFix(_ name: String) throws {
    let directory = try ScratchDirectory("wire-\(name)")
    defer { directory.remove() }
    let link = directory.path + "/tty"
    // As many systems as the chip tracks at once (all four where it can).
    let tracking = try #require(ReceiverProfile.named(name)).tracking
    let systems = ["gps", "glonass", "galileo", "beidou"]
      .filter { name in tracking.trackable.contains { $0.rawValue == name } }
      .prefix(tracking.concurrentLimit).joined(separator: ",")
    let (emulator, _) = try MockGPSBinary.start([
      "--link", link, "--profile", name, "--constellations", systems,
      "--position", "\(Self.latitude),\(Self.longitude),\(Self.altitude)", "--baud", "115200",
    ])
    defer { emulator.kill() }
    let device = try DeviceReader(path: link)
    let isUblox = name.hasPrefix("ublox")
    if isUblox {
      // A client switches on the navigation messages gpsd asks a u-blox 8/9 for.
      for type in [UBXMessageType.navPVT, .navDOP, .navSAT] {
        let frame = UBXFrame(.cfgMSG, payload: [type.messageClass, type.id, 1])
        _ = try device.descriptor.write(frame.bytes[...])
      }
    }
    var demultiplexer = InputDemultiplexer()
    // A client that opens the device during a burst reads the rest of it, as from a UART
    // (`EpochLoop`): the tail of a sentence before the first whole one is the line's, not an
    // encoding error (23 bytes once in a loaded run). The decoders read from the first line.
    var raw = Self.readRaw(device, seconds: 4.5)[...]
    let start = raw.prefix(48)
    if raw.first != UInt8(ascii: "$"), let end = raw.firstIndex(of: UInt8(ascii: "\n")) {
      raw = raw[(end + 1)...]
    }
    let messages = demultiplexer.append(Array(raw))
    #expect(
      demultiplexer.discardedByteCount == 0, "\(Self.whereDiscarded(Array(raw), opened: start))")
    let lines = messages.compactMap { message -> String? in
      guard case .nmea(let line) = message, !line.hasPrefix("$P") else { return nil }
      return line
    }
    let nmea = try PythonTool.json(
      "decode_nmea.py", input: Data(lines.map { $0 + "\r\n" }.joined().utf8))
    #expect(nmea["errors"] as? Int == 0, "\(nmea["errorLines"] ?? "")")
    let epochs = try #require(nmea["epochs"] as? [[String: Any]])
    #expect(epochs.count >= 3)
    for epoch in epochs {
      #expect(abs((epoch["lat"] as? Double ?? 0) - Self.latitude) <= 1e-5, "\(epoch)")
      #expect(abs((epoch["lon"] as? Double ?? 0) - Self.longitude) <= 1e-5, "\(epoch)")
      #expect(abs((epoch["alt"] as? Double ?? 0) - Self.altitude) <= 0.05, "\(epoch)")
      #expect((epoch["hdop"] as? Double ?? 99) < 5, "\(epoch)")
      if let used = epoch["used"] as? Int, epoch["pdop"] as? Double != nil {
        #expect(used >= 4, "\(epoch)")
      }
    }
    guard isUblox else { return }
    let frames = messages.compactMap { message -> [UInt8]? in
      guard case .ubx(let frame) = message else { return nil }
      return frame.bytes
    }
    let ubx = try PythonTool.json("decode_ubx.py", input: Data(frames.joined()))
    #expect((ubx["errors"] as? [String])?.isEmpty == true, "\(ubx["errors"] ?? "")")
    let decoded = try #require(ubx["messages"] as? [[String: Any]])
    let pvts = decoded.filter { $0["identity"] as? String == "NAV-PVT" }
    #expect(pvts.count >= 2)
    #expect(decoded.contains { $0["identity"] as? String == "NAV-SAT" })
    let usedByTime = Dictionary(
      epochs.compactMap { epoch in
        (epoch["time"] as? String).map { (String($0.prefix(8)), epoch["used"] as? Int ?? -1) }
      }, uniquingKeysWith: { first, _ in first })
    var compared = 0
    for pvt in pvts {
      #expect(abs((pvt["lat"] as? Double ?? 0) - Self.latitude) <= 1e-6, "\(pvt)")
      #expect(abs((pvt["lon"] as? Double ?? 0) - Self.longitude) <= 1e-6, "\(pvt)")
      #expect(abs((pvt["hMSL"] as? Double ?? 0) - Self.altitude) <= 0.002, "\(pvt)")
      #expect(pvt["fixType"] as? Int == 3)
      let time = String(
        format: "%02d:%02d:%02d", pvt["hour"] as? Int ?? 0, pvt["min"] as? Int ?? 0,
        pvt["second"] as? Int ?? 0)
      // The NMEA of the same epoch counts the same satellites used.
      if let used = usedByTime[time] {
        #expect(pvt["numSV"] as? Int == used, "\(time): \(pvt) against GSA's \(used)")
        compared += 1
      }
    }
    #expect(compared >= 1)
  }

  /// Every byte the device sends for `seconds`.
  static func readRaw(_ device: DeviceReader, seconds: Double) -> [UInt8] {
    let deadline = DeviceReader.monotonicNanoseconds() + Int64(seconds * 1e9)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while DeviceReader.monotonicNanoseconds() < deadline {
      if case .transferred(let count) = (try? device.descriptor.read(into: &buffer)) ?? .wouldBlock,
        count > 0
      {
        bytes += buffer.prefix(count)
      } else {
        usleep(10_000)
      }
    }
    return bytes
  }

  /// Where the demultiplexer first discarded bytes of `raw`, and what the client read first:
  /// the bytes around, escaped, to tell a cut at the open from a bad frame (seen once in a
  /// loaded run, 4 bytes of the F9P's).
  static func whereDiscarded(_ raw: [UInt8], opened: ArraySlice<UInt8>) -> String {
    var demultiplexer = InputDemultiplexer()
    for (index, byte) in raw.enumerated() {
      _ = demultiplexer.append([byte])
      guard demultiplexer.discardedByteCount > 0 else { continue }
      let around = raw[max(0, index - 60)..<min(raw.count, index + 20)]
      return "discarded at byte \(index) of \(raw.count): \(escaped(around)); "
        + "the first bytes read: \(escaped(opened))"
    }
    return "nothing discarded when fed a byte at a time"
  }

  static func escaped<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    bytes.map { byte in
      (0x20..<0x7f).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }.joined()
  }
}
