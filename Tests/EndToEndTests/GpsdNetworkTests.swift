import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// The real gpsd 3.22 reading mockgps over the network: `tcp://127.0.0.1:PORT` from `--tcp`,
/// `udp://127.0.0.1:PORT` from `--udp`.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct GpsdNetworkTests {
  static let (latitude, longitude) = (-33.856784, 151.215297)

  /// Checks that gpsd reported a 3D fix at the emitted position.
  static func expectFixAtThePosition(_ gpsd: GpsdSession) throws {
    let fixes = gpsd.reports("TPV", within: 30).filter { $0["mode"] as? Int == 3 }
    let fix = try #require(fixes.last, "no 3D TPV in: \(gpsd.transcript)")
    #expect(abs((fix["lat"] as? Double ?? 0) - latitude) <= 2e-7)
    #expect(abs((fix["lon"] as? Double ?? 0) - longitude) <= 2e-7)
  }

  @Test(.enabled(if: GpsdSession.runnable)) func gpsdReadsTheTCPOutput() throws {
    let directory = try ScratchDirectory("gpsd-tcp")
    defer { directory.remove() }
    let (emulator, _) = try MockGPSBinary.start([
      "--link", directory.path + "/ttyMOCKGPS", "--position",
      "\(Self.latitude),\(Self.longitude),4",
      "--rate", "5", "--baud", "0", "--tcp", "0",
    ])
    defer { emulator.kill() }
    let startLine = emulator.standardOutput
    let served = try #require(
      startLine.range(of: #"tcp://127\.0\.0\.1:[0-9]+"#, options: .regularExpression),
      "no TCP address in the start line: \(startLine)")
    let gpsd = try GpsdSession(
      device: String(startLine[served]), directory: directory, readOnly: true, reports: 20)
    defer { gpsd.stop() }
    try Self.expectFixAtThePosition(gpsd)
  }

  @Test(.enabled(if: GpsdSession.runnable)) func gpsdReadsTheUDPOutput() throws {
    let directory = try ScratchDirectory("gpsd-udp")
    defer { directory.remove() }
    let port = try GpsdSession.freePort()
    // gpsd binds the port; what mockgps sends before is dropped.
    let gpsd = try GpsdSession(
      device: "udp://127.0.0.1:\(port)", directory: directory, readOnly: true, reports: 20)
    defer { gpsd.stop() }
    let (emulator, _) = try MockGPSBinary.start([
      "--link", directory.path + "/ttyMOCKGPS", "--position",
      "\(Self.latitude),\(Self.longitude),4",
      "--rate", "5", "--baud", "0", "--udp", "127.0.0.1:\(port)",
    ])
    defer { emulator.kill() }
    #expect(emulator.standardOutput.contains("serving udp://127.0.0.1:\(port)"))
    try Self.expectFixAtThePosition(gpsd)
  }

  @Test func aPortInUseIsARuntimeErrorNamingTheAddress() throws {
    let directory = try ScratchDirectory("tcp-in-use")
    defer { directory.remove() }
    let (first, _) = try MockGPSBinary.start([
      "--link", directory.path + "/first", "--baud", "0", "--tcp", "0",
    ])
    defer { first.kill() }
    let startLine = first.standardOutput
    let served = try #require(
      startLine.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression))
    let address = String(startLine[served])
    let (status, _, standardError) = try MockGPSBinary.run([
      "run", "--link", directory.path + "/second", "--baud", "0", "--tcp", address,
    ])
    #expect(status == 1)
    #expect(standardError.contains("cannot listen '\(address)': Address already in use"))
  }
}
