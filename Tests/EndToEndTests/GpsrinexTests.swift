import Foundation
import Testing

/// gpsd's own raw-measurement chain against the F9P profile: `ubxtool -e RAWX` (and SFRBX)
/// through gpsd turns the messages on, and `gpsrinex` writes a RINEX 3 observation file of
/// them, as it does from a real ZED-F9P (issue 20 found the file empty: RXM-RAWX was ACK'd and
/// never sent).
@Suite(.blocking) struct GpsrinexTests {
  static let gpsrinex = findExecutable("gpsrinex")
  static let ubxtool = findExecutable("ubxtool")

  @Test(.enabled(if: GpsdSession.runnable), .timeLimit(.minutes(10)))
  func gpsrinexWritesTheF9PsMeasurements() throws {
    let gpsrinex = try #require(Self.gpsrinex, "gpsrinex is not installed (gpsd-clients)")
    let ubxtool = try #require(Self.ubxtool, "ubxtool is not installed (gpsd-clients)")
    let directory = try ScratchDirectory("gpsrinex")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    let (emulator, _) = try MockGPSBinary.start([
      "--link", link, "--profile", "ublox-f9p", "--no-control",
    ])
    defer { emulator.kill() }
    let gpsd = try GpsdSession(device: link, directory: directory, readOnly: false, reports: 50)
    defer { gpsd.stop() }
    #expect(!gpsd.reports("TPV", within: 15).isEmpty, "gpsd sees the receiver")
    let server = "127.0.0.1:\(gpsd.port)"
    for message in ["RAWX", "SFRBX"] {
      let enable = try TestProcess(ubxtool, ["-P", "27.31", "-e", message, server])
      #expect(enable.exitStatus(within: 30) == 0, "ubxtool -e \(message): \(enable.standardError)")
    }
    let file = directory.path + "/out.obs"
    let rinex = try TestProcess(gpsrinex, ["-i", "1", "-n", "5", "-f", file, server])
    #expect(rinex.exitStatus(within: 60) == 0, "gpsrinex: \(rinex.standardError)")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let lines = text.split(separator: "\n")
    #expect(
      lines.contains { $0.hasPrefix("G") && $0.contains("C1C L1C D1C") }, "\(text.prefix(2000))")
    let epochs = lines.filter { $0.hasPrefix(">") }
    #expect(epochs.count == 5, "\(text.prefix(2000))")
    // Each epoch: flag 0, and at least four satellites, each with a pseudorange of a GPS
    // satellite seen from the ground (20,000–26,000 km).
    for epoch in epochs {
      let fields = epoch.split(separator: " ")
      #expect(fields.count >= 9 && fields[7] == "0" && (Int(fields[8]) ?? 0) >= 4, "\(epoch)")
    }
    let pseudoranges = lines.filter { $0.hasPrefix("G") && !$0.contains("SYS /") }.compactMap {
      Double($0.dropFirst(3).prefix(14).trimmingCharacters(in: .whitespaces))
    }
    #expect(pseudoranges.count >= 20)
    #expect(pseudoranges.allSatisfy { (20e6...26e6).contains($0) }, "\(pseudoranges)")
  }
}
