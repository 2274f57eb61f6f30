import Foundation
import Geodesy
import Glibc
import MockGPSTestSupport
import Simulation
import TestFixtures
import Testing

/// The real gpsd reading an F9P rover while corrections are written into the same device (as
/// an NTRIP client beside gpsd writes them): its TPV reports go from a plain fix to DGPS (2),
/// RTK float (4) and RTK fixed (3), as gpsd 3.22 maps GGA's quality.
@Suite(.blocking, .serialized) struct GpsdRTKTests {
  @Test(.enabled(if: GpsdSession.runnable))
  func gpsdReportsTheRoverGoingDGPSFloatThenFixed() throws {
    let directory = try ScratchDirectory("gpsd-rtk")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    let place = GeodeticPosition(known: 52.2297, 21.0122, altitudeMeters: 110)
    // Float 1.5–4.5 s after the first corrections (a DGPS epoch or more first), fixed 1.5–4.5 s
    // after that.
    let (emulator, _) = try MockGPSBinary.start([
      "--link", link, "--position", "\(place.latitude),\(place.longitude),110",
      "--profile", "ublox-f9p", "--baud", "115200", "--rtk-convergence", "3,3",
    ])
    defer { emulator.kill() }
    // Read-only: gpsd leaves the chip's configuration alone and reads its NMEA.
    let gpsd = try GpsdSession(device: link, directory: directory, readOnly: true, reports: 400)
    defer { gpsd.stop() }
    let writer = open(link, O_WRONLY | O_NOCTTY)
    try #require(writer >= 0, "open \(link): errno \(errno)")
    defer { close(writer) }
    // A plain 3D fix first, as gpsd reports it before any corrections.
    let plain = Eventually.holds(within: 20, intervalMicroseconds: 100_000) {
      Self.statuses(gpsd.reports("TPV", within: 0)).count >= 2
    }
    try #require(plain, "no 3D fix: \(gpsd.transcript)")
    // A station 1 km east: corrections twice a second until gpsd has reported RTK fixed for
    // two more seconds (9 s of corrections at the most for the draws, 60 s allowed for a
    // loaded machine).
    let station = GeodeticPosition(
      known: place.latitude, place.longitude + 0.0147, altitudeMeters: 110)
    let deadline = Date().addingTimeInterval(60)
    var fixedSince: Date?
    var half = 0
    while Date() < deadline, fixedSince.map({ Date().timeIntervalSince($0) < 2 }) ?? true {
      // Observed now (the emulator runs on the wall clock).
      let now = UTCInstant(nanosecondsSinceEpoch: Int64(Date().timeIntervalSince1970 * 1e9))
      let (bytes, _) = try CorrectionStream.second(
        stationID: 7, at: station, withPosition: half % 4 == 0, time: now)
      let written = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
      #expect(written == bytes.count)
      half += 1
      usleep(500_000)
      if fixedSince == nil, Self.statuses(gpsd.reports("TPV", within: 0)).contains(3) {
        fixedSince = Date()
      }
    }
    let statuses = Self.statuses(gpsd.reports("TPV", within: 0.1))
    // gpsd reports status only when it is not a plain fix (1).
    let changes = statuses.enumerated().filter {
      $0.offset == 0 || statuses[$0.offset - 1] != $0.element
    }
    .map(\.element)
    #expect(changes == [1, 2, 4, 3], "TPV status \(statuses): \(gpsd.transcript)")
    #expect(statuses.last == 3)
  }

  /// The `status` of each 3D TPV, 1 where gpsd leaves it out.
  static func statuses(_ reports: [[String: Any]]) -> [Int] {
    reports.filter { $0["mode"] as? Int == 3 }.map { $0["status"] as? Int ?? 1 }
  }
}
