import Foundation
import MockGPSTestSupport
import TestFixtures
import Testing

/// gpsd 3.22's ubxtool against the ublox-f9p profile: it reads, sets and deletes items of the
/// configuration database (VALGET over the four layers, VALSET, VALDEL) and the chip answers as
/// the ZED-F9P does.
@Suite(.blocking, .serialized) struct UbxtoolConfigurationTests {
  static let ubxtool = findExecutable("ubxtool")

  /// Runs ubxtool on the emulator's link and returns what it printed.
  static func ubxtool(_ link: String, _ arguments: [String]) throws -> String {
    let process = try TestProcess(
      ubxtool ?? "ubxtool", ["-f", link, "-s", "38400", "-P", "27.11", "-w", "2"] + arguments)
    guard process.exitStatus(within: 30) == 0 else {
      process.kill()
      throw TestFailure("ubxtool \(arguments) failed: \(process.standardError)")
    }
    return process.standardOutput
  }

  @Test(.enabled(if: ubxtool != nil), .timeLimit(.minutes(10)))
  func ubxtoolSetsReadsAndDeletesItems() throws {
    let directory = try ScratchDirectory("ubxtool-f9p")
    defer { directory.remove() }
    let link = directory.path + "/ttyF9P"
    let (emulator, _) = try MockGPSBinary.start([
      "--link", link, "--profile", "ublox-f9p", "--position", "48.1,11.5",
    ])
    defer { emulator.kill() }
    let read = try Self.ubxtool(link, ["-g", "CFG-SIGNAL-GPS_ENA"])
    #expect(read.contains("item CFG-SIGNAL-GPS_ENA/0x1031001f val 1"))
    #expect(read.contains("ACK to Class x06 (CFG) ID x8b (VALGET)"))
    let set = try Self.ubxtool(link, ["-z", "CFG-NAVSPG-DYNMODEL,4"])
    #expect(set.contains("ACK to Class x06 (CFG) ID x8a (VALSET)"))
    #expect(!set.contains("NAK to Class x06 (CFG) ID x8a"))
    let model = try Self.ubxtool(link, ["-g", "CFG-NAVSPG-DYNMODEL"])
    #expect(model.contains("layers (ram)\n    item CFG-NAVSPG-DYNMODEL/0x20110021 val 4"))
    #expect(model.contains("layers (bbr)\n    item CFG-NAVSPG-DYNMODEL/0x20110021 val 4"))
    #expect(model.contains("layers (default)\n    item CFG-NAVSPG-DYNMODEL/0x20110021 val 0"))
    let delete = try Self.ubxtool(link, ["-x", "CFG-NAVSPG-DYNMODEL"])
    #expect(delete.contains("ACK to Class x06 (CFG) ID x8c (VALDEL)"))
    let after = try Self.ubxtool(link, ["-g", "CFG-NAVSPG-DYNMODEL"])
    #expect(!after.contains("layers (bbr)"))
    #expect(after.contains("layers (ram)\n    item CFG-NAVSPG-DYNMODEL/0x20110021 val 4"))
  }
}
