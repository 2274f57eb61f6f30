import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// The real gpsd 3.22 on the emulator's link, read back with `gpspipe -w` (see `GpsdSession`).
///
/// `scripts/test` installs gpsd and sets MOCKGPS_REQUIRE_GPSD=1, so there a missing gpsd fails
/// instead of skipping.
@Suite(.blocking, .serialized) struct GpsdTests {
  @Test(.enabled(if: GpsdSession.runnable), arguments: [true, false])
  func gpsdGetsA3DFixAtExactlyTheEmittedPosition(readOnly: Bool) throws {
    let directory = try ScratchDirectory("gpsd")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    let (latitude, longitude) = (-33.856784, 151.215297)
    let (emulator, _) = try MockGPSBinary.start([
      "--link", link, "--position", "\(latitude),\(longitude),4", "--rate", "5", "--baud",
      "115200", "-v",
    ])
    defer { emulator.kill() }
    let gpsd = try GpsdSession(device: link, directory: directory, readOnly: readOnly, reports: 25)
    defer { gpsd.stop() }
    let reports = gpsd.reports(within: 30)
    let fixes = reports.filter { $0["class"] as? String == "TPV" && $0["mode"] as? Int == 3 }
    let fix = try #require(fixes.last, "no 3D TPV in: \(gpsd.transcript)")
    #expect(abs((fix["lat"] as? Double ?? 0) - latitude) <= 2e-7)
    #expect(abs((fix["lon"] as? Double ?? 0) - longitude) <= 2e-7)
    #expect(abs((fix["altMSL"] as? Double ?? 0) - 4) < 0.05)
    let sky = try #require(
      reports.last { $0["class"] as? String == "SKY" && $0["satellites"] != nil })
    let satellites = try #require(sky["satellites"] as? [[String: Any]])
    // The generic receiver's orbital GPS sky: up to its 12 channels, every used satellite a
    // GPS one above the 5° mask, and enough of them for the 3D fix.
    let used = satellites.filter { $0["used"] as? Bool == true }
    #expect(satellites.count <= 12)
    #expect(used.count >= 4)
    for satellite in used {
      #expect((1...32).contains(satellite["PRN"] as? Int ?? 0), "\(satellite)")
      #expect((satellite["el"] as? Double ?? 0) >= 5, "\(satellite)")
    }
    if !readOnly {
      // Without -b gpsd probes the receiver; the probes reach the command hook.
      #expect(emulator.standardError.contains("client sent $PMTK605*31"))
    }
  }
}

/// Every sentence read from the device is accepted by two independent parsers.
@Suite(.blocking, .serialized) struct IndependentParserTests {
  static let python = findExecutable("python3")

  @Test func pynmea2AndPynmeagpsAcceptEveryEmittedSentence() throws {
    let directory = try ScratchDirectory("pynmea")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    let (emulator, _) = try MockGPSBinary.start([
      "--link", link, "--position", "-45.8775915,170.500124833,14.2", "--rate", "5", "--baud", "0",
    ])
    defer { emulator.kill() }
    let capture = directory.path + "/capture.nmea"
    let reader = try DeviceReader(path: link)
    let lines = reader.readLines(45, timeoutSeconds: 5).map(\.text)
    #expect(lines.count == 45)
    try lines.map { $0 + "\r\n" }.joined().write(
      toFile: capture, atomically: true, encoding: .ascii)
    let script = ToolPaths.tools + "/validate_nmea.py"
    let check = try TestProcess(
      "/usr/bin/env", ["python3", script, capture, "-45.8775915", "170.500124833"])
    let status = check.exitStatus(within: 30)
    #expect(status == 0, "\(check.standardOutput)\(check.standardError)")
    #expect(check.standardOutput.contains("'GSV'"))
  }
}

enum ToolPaths {
  static let tools = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Tools").path
}
