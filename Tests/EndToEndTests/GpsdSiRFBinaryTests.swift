import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// The `sirf` profile under the real gpsd 3.22 without `-b`: gpsd's NMEA probe writes
/// `$PSRF100,0,4800,8,1,0`, the chip switches to SiRF binary, gpsd's SiRF driver takes it
/// (DEVICE `driver` "SiRF", native mode, the GSD4e version from MID 6 as its subtype),
/// configures it with binary messages (one of which, MID 128, restarts it: a hot start, an
/// epoch or two without a fix) and then keeps a 3D fix from MID 2.
@Suite(.blocking) struct GpsdSiRFBinaryTests {
  static let (latitude, longitude, altitude) = (-33.856784, 151.215297, 4.0)
  /// MID 2 carries the ECEF position in whole meters: gpsd's latitude and longitude are that
  /// far from the emitted ones (1e-5° is 1.1 m), its heights too.
  static let degreesTolerance = 1e-5
  /// How long the fix must hold after the last DEVICE report.
  static let holdSeconds = 20.0

  /// Where the fix must hold from: the first 3D fix after gpsd's last DEVICE report and after
  /// the hot start its MID 128 orders, which may come after that report (gpsd sends MID 128
  /// once the chip is identified, and the chip then reports no fix until it is up again).
  static func settledStart(_ reports: [[String: Any]]) -> Int? {
    guard let configured = GpsdProfileTests.holdStart(reports, driver: "SiRF", binary: true)
    else { return nil }
    guard
      let lastLoss = reports[configured...].lastIndex(where: {
        $0["class"] as? String == "TPV" && $0["mode"] as? Int != 3
      })
    else { return configured }
    return reports[lastLoss...].firstIndex {
      $0["class"] as? String == "TPV" && $0["mode"] as? Int == 3
        && GpsdProfileTests.time($0["time"]) != nil
    }
  }

  @Test(.enabled(if: GpsdSession.runnable), .timeLimit(.minutes(10)))
  func gpsdSwitchesTheChipToSiRFBinaryAndKeepsA3DFix() throws {
    let directory = try ScratchDirectory("gpsd-sirf-binary")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    let (emulator, _) = try MockGPSBinary.start([
      "--link", link, "--profile", "sirf", "--position",
      "\(Self.latitude),\(Self.longitude),\(Self.altitude)", "-v",
    ])
    defer { emulator.kill() }
    let gpsd = try GpsdSession(device: link, directory: directory, readOnly: false, reports: 10_000)
    defer { gpsd.stop() }
    var reports: [[String: Any]] = []
    var start: Int?
    let deadline = Date().addingTimeInterval(80)
    repeat {
      sleep(2)
      reports = gpsd.reports(within: 0)
      start = Self.settledStart(reports)
      if let start,
        GpsdProfileTests.heldSeconds(GpsdProfileTests.tpvs(from: start, in: reports))
          >= Self.holdSeconds + 2
      {
        break
      }
    } while Date() < deadline
    let device = reports.last { $0["class"] as? String == "DEVICE" && $0["driver"] != nil }
    #expect(device?["driver"] as? String == "SiRF", "\(gpsd.transcript)")
    #expect(device?["native"] as? Int == 1, "\(gpsd.transcript)")
    #expect((device?["subtype"] as? String)?.hasPrefix("GSD4e_4.0.4") == true, "\(device ?? [:])")
    let first = try #require(start, "not switched to SiRF binary: \(gpsd.transcript)")
    // The hot start of gpsd's MID 128 (a time to first fix of 1 s) costs an epoch or two.
    if let configured = GpsdProfileTests.holdStart(reports, driver: "SiRF", binary: true) {
      let losses = GpsdProfileTests.tpvs(from: configured, in: reports).filter {
        $0["mode"] as? Int != 3
      }
      #expect(losses.count <= 2, "\(losses)")
    }
    let after = GpsdProfileTests.tpvs(from: first, in: reports)
    #expect(GpsdProfileTests.heldSeconds(after) >= Self.holdSeconds, "\(gpsd.transcript)")
    for tpv in after {
      #expect(tpv["mode"] as? Int == 3, "\(tpv)")
      #expect(abs((tpv["lat"] as? Double ?? 0) - Self.latitude) <= Self.degreesTolerance)
      #expect(abs((tpv["lon"] as? Double ?? 0) - Self.longitude) <= Self.degreesTolerance)
    }
    let outputs = emulator.standardError.split(separator: "\n").filter {
      $0.contains("output NMEA")
    }
    #expect(outputs.last?.contains("output NMEA off, UBX off, SiRF on") == true, "\(outputs)")
  }
}
