import Foundation
import Geodesy
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// Each receiver profile under the real gpsd 3.22 without `-b`: gpsd probes it, names the
/// driver the chip deserves, reconfigures it (a u-blox to binary UBX), and then keeps a 3D fix
/// at the emitted position for at least 30 s. The profiles run in parallel, each bounded.
@Suite(.blocking) struct GpsdProfileTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let profile: String
    /// The driver gpsd's DEVICE report names.
    let driver: String
    /// gpsd switches the chip to its binary protocol.
    let binary: Bool
    var testDescription: String { profile }
  }

  static let cases = [
    Case(profile: "generic", driver: "NMEA0183", binary: false),
    Case(profile: "ublox-m8", driver: "u-blox", binary: true),
    Case(profile: "ublox-f9p", driver: "u-blox", binary: true),
    Case(profile: "mtk", driver: "MTK-3301", binary: false),
    // The SiRF goes to SiRF binary, whose MID 2 has whole-meter ECEF: GpsdSiRFBinaryTests.
  ]

  /// Sydney Opera House; EGM96 puts the geoid 21.99 m above the ellipsoid there (RTKLIB's
  /// embedded EGM96 model, `geoidh`, an independent implementation).
  static let (latitude, longitude, altitude) = (-33.856784, 151.215297, 4.0)
  static let separation = 21.99
  /// How far the coarse EGM96 grid mockgps carries (10°, interpolated) may be from the 1° one
  /// there: 19.1 m against 21.99 m.
  static let coarseGeoidTolerance = 3.5
  /// The separation mockgps emits there, from its coarse EGM96 grid.
  static let emittedSeparation = EGM96Geoid().separationMeters(
    latitude: latitude, longitude: longitude)
  /// How long the fix must hold after gpsd has finished reconfiguring the receiver.
  static let holdSeconds = 30.0

  @Test(.enabled(if: GpsdSession.runnable), .timeLimit(.minutes(10)), arguments: cases)
  func gpsdIdentifiesTheProfileAndKeepsA3DFixAfterReconfiguringIt(_ c: Case) throws {
    let directory = try ScratchDirectory("gpsd-\(c.profile)")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    let (emulator, _) = try MockGPSBinary.start([
      "--link", link, "--profile", c.profile, "--position",
      "\(Self.latitude),\(Self.longitude),\(Self.altitude)", "-v",
    ])
    defer { emulator.kill() }
    let gpsd = try GpsdSession(device: link, directory: directory, readOnly: false, reports: 10_000)
    defer { gpsd.stop() }
    var reports: [[String: Any]] = []
    var start: Int?
    let deadline = Date().addingTimeInterval(80)
    // Until the fix has held for the whole time after the last DEVICE report, or the deadline.
    repeat {
      sleep(2)
      reports = gpsd.reports(within: 0)
      start = Self.holdStart(reports, driver: c.driver, binary: c.binary)
      if let start, Self.heldSeconds(Self.tpvs(from: start, in: reports)) >= Self.holdSeconds + 2 {
        break
      }
    } while Date() < deadline
    let device = reports.last { $0["class"] as? String == "DEVICE" && $0["driver"] != nil }
    #expect(device?["driver"] as? String == c.driver, "\(gpsd.transcript)")
    let first = try #require(start, "not configured as expected: \(gpsd.transcript)")
    let after = Self.tpvs(from: first, in: reports)
    let times = after.compactMap { Self.time($0["time"]) }
    #expect(Self.heldSeconds(after) >= Self.holdSeconds, "\(gpsd.transcript)")
    // No gap: the receiver never stops reporting while the fix holds.
    for (earlier, later) in zip(times, times.dropFirst()) {
      #expect(later.timeIntervalSince(earlier) <= 2.5)
    }
    for tpv in after {
      #expect(tpv["mode"] as? Int == 3, "\(tpv)")
      #expect(abs((tpv["lat"] as? Double ?? 0) - Self.latitude) <= 1e-6)
      #expect(abs((tpv["lon"] as? Double ?? 0) - Self.longitude) <= 1e-6)
      let msl = tpv["altMSL"] as? Double ?? .nan
      let hae = tpv["altHAE"] as? Double ?? .nan
      #expect(abs(msl - Self.altitude) < 0.05, "\(tpv)")
      // What the receiver reported: GGA's separation (to 0.1 m) or, from UBX, NAV-PVT's
      // height above the ellipsoid minus hMSL (to 1 mm).
      #expect(abs(hae - msl - Self.emittedSeparation) < 0.051, "\(tpv)")
      let separation = tpv["geoidSep"] as? Double ?? .nan
      if !c.binary {
        // gpsd passes GGA's separation through; from UBX it takes its own geoid model's.
        #expect(abs(hae - msl - separation) < 0.01, "\(tpv)")
      }
      #expect(abs(separation - Self.separation) < Self.coarseGeoidTolerance, "\(tpv)")
    }
    if c.binary {
      // gpsd turned our NMEA off: what kept the fix going was UBX.
      let outputs = emulator.standardError.split(separator: "\n").filter {
        $0.contains("output NMEA")
      }
      #expect(outputs.last?.contains("output NMEA off, UBX on") == true, "\(outputs)")
    }
  }

  /// Where the hold starts: the first 3D fix after the last DEVICE report, when that report
  /// names the driver (in binary mode when `binary`). gpsd sends one whenever it changes the
  /// receiver's driver, mode or speed; the TPV of an RMC read before its cycle's GGA may be 2D.
  static func holdStart(_ reports: [[String: Any]], driver: String, binary: Bool) -> Int? {
    guard let lastDevice = reports.lastIndex(where: { $0["class"] as? String == "DEVICE" }),
      reports[lastDevice]["driver"] as? String == driver,
      !binary || reports[lastDevice]["native"] as? Int == 1
    else { return nil }
    return reports[lastDevice...].firstIndex {
      $0["class"] as? String == "TPV" && $0["mode"] as? Int == 3 && time($0["time"]) != nil
    }
  }

  /// The TPV reports from `start` on.
  static func tpvs(from start: Int, in reports: [[String: Any]]) -> [[String: Any]] {
    reports[start...].filter { $0["class"] as? String == "TPV" }
  }

  /// Seconds from the first to the last of these reports' times.
  static func heldSeconds(_ tpvs: [[String: Any]]) -> Double {
    let times = tpvs.compactMap { time($0["time"]) }
    guard let first = times.first, let last = times.last else { return 0 }
    return last.timeIntervalSince(first)
  }

  /// An ISO 8601 time as gpsd writes it, `2026-11-30T20:15:03.000Z`.
  static func time(_ value: Any?) -> Date? {
    guard let text = value as? String else { return nil }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }
}
