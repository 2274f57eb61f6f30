import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// The real gpsd reading a real receiver's capture (played by a `FakeReceiver`) through
/// `mockgps run --passthrough`, compared with gpsd reading the same capture directly.
@Suite(.blocking, .serialized) struct PassthroughGpsdTests {
  /// The override position: whole in 1e-7 degrees and in 1e-5 minutes, so that UBX and NMEA
  /// fields carry it exactly.
  static let (latitude, longitude, altitude) = (-33.856784, 151.215297, 4.0)

  /// u-blox captures with NAV-PVT (NEO-M8N) and NAV-SOL (NEO-M8T), and a multi-GNSS NMEA one
  /// (ZED-F9P: GPS, GLONASS, Galileo, BeiDou); whether gpsd takes the altitude above mean sea
  /// level from the receiver (NAV-PVT, GGA) rather than from ECEF through its own geoid.
  @Test(
    .enabled(if: GpsdSession.runnable),
    arguments: [
      ("ublox-neo-m8n.log", true), ("ublox-neo-m8t.log", false), ("ublox-zed-f9p-nmea.log", true),
    ])
  func gpsdReportsTheOverridePositionWithTheReceiversTimeSatellitesAndMode(
    log: String, altitudeIsMSL: Bool
  ) throws {
    let capture = try Fixtures.gpsdLog(log)
    let direct = try GpsdOnCapture.reports(capture, through: nil)
    let overridden = try GpsdOnCapture.reports(
      capture,
      through: ["--override", "replace", "--position", "\(Self.latitude),\(Self.longitude),4"])
    let fixes = overridden.tpvs.filter { ($0["mode"] as? Int ?? 0) >= 2 }
    try #require(!fixes.isEmpty, "no fix through mockgps")
    for fix in fixes {
      #expect(abs((fix["lat"] as? Double ?? 0) - Self.latitude) <= 5e-7, "\(fix)")
      #expect(abs((fix["lon"] as? Double ?? 0) - Self.longitude) <= 5e-7, "\(fix)")
      if altitudeIsMSL, fix["mode"] as? Int == 3, let altitudeMSL = fix["altMSL"] as? Double {
        #expect(abs(altitudeMSL - Self.altitude) < 0.05, "\(fix)")
      }
    }
    #expect(GpsdOnCapture.timesAndModes(of: overridden) == GpsdOnCapture.timesAndModes(of: direct))
    #expect(overridden.skies == direct.skies)
    #expect(!direct.skies.isEmpty)
  }

  /// With `--override off` mockgps is a wire: gpsd says exactly what it says of the capture
  /// read directly.
  @Test(
    .enabled(if: GpsdSession.runnable),
    arguments: ["ublox-neo-m8n.log", "ublox-zed-f9p-nmea.log"])
  func gpsdSaysTheSameThroughMockGPSWithoutOverride(log: String) throws {
    let capture = try Fixtures.gpsdLog(log)
    let direct = try GpsdOnCapture.reports(capture, through: nil)
    let passed = try GpsdOnCapture.reports(capture, through: ["--override", "off"])
    try #require(!direct.tpvs.isEmpty)
    #expect(passed.tpvs == direct.tpvs)
    #expect(passed.skies == direct.skies)
  }
}

/// gpsd's TPV and SKY reports for a capture that a fake receiver plays, read directly or
/// through mockgps.
struct GpsdOnCapture {
  var tpvs: [NSDictionary]
  var skies: [NSDictionary]

  /// Plays `capture` on a fake receiver, 100 ms an epoch, to gpsd (read-only, so that the
  /// run does not depend on its probes) on the fake's own link when `arguments` is nil, else
  /// on the link of `mockgps run --passthrough FAKE` with `arguments`.
  static func reports(_ capture: URL, through arguments: [String]?) throws -> GpsdOnCapture {
    let directory = try ScratchDirectory("passthrough-gpsd")
    defer { directory.remove() }
    let receiver = try FakeReceiver(linkPath: directory.path + "/ttyREAL")
    defer { receiver.close() }
    var device = receiver.linkPath
    var emulator: TestProcess?
    defer { emulator?.kill() }
    if let arguments {
      device = directory.path + "/ttyOUT"
      emulator =
        try MockGPSBinary.start(
          [
            "--passthrough", receiver.linkPath, "--passthrough-baud", "9600", "--link", device,
          ] + arguments
        ).0
    }
    let session = try GpsdSession(
      device: device, directory: directory, readOnly: true, reports: 100_000)
    defer { session.stop() }
    // gpsd flushes the line when it opens it (gpsfake waits 1.4 s for that too).
    usleep(2_000_000)
    let epochs = try receiver.play(logPath: capture.path, gapMilliseconds: 100)
    try #require(epochs > 0)
    usleep(1_500_000)
    let lines = session.pipe.standardOutput.split(whereSeparator: \.isNewline)
    let reports = lines.compactMap { line -> [String: Any]? in
      guard var report = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      else { return nil }
      report["device"] = nil
      return report
    }
    func ofClass(_ name: String) -> [NSDictionary] {
      reports.filter { $0["class"] as? String == name }.map { $0 as NSDictionary }
    }
    return GpsdOnCapture(tpvs: ofClass("TPV"), skies: ofClass("SKY"))
  }

  /// What an override keeps of the TPV reports: the time, the fix mode and status.
  static func timesAndModes(of reports: GpsdOnCapture) -> [String] {
    reports.tpvs.map {
      "\($0["time"] ?? "-") mode \($0["mode"] ?? "-") status \($0["status"] ?? "-")"
    }
  }
}
