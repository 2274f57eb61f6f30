import DeviceRuntime
import NMEA
import Simulation
import Testing

@testable import MockGPS

/// `status` reads a replay's fix back from the bytes of the last epochs noted (`LastFix`), at
/// most `unreadLimit` of them, oldest first, so that the newest fix and the newest sky stand.
@Suite struct LastFixTests {
  static let wire = UTCInstant(year: 2026, month: 12, day: 7, hour: 12)

  /// An epoch of a GGA at latitude 10 + `index` / 100 degrees, and a GSV of the one satellite
  /// `index + 1`, without a fix of its own (as a replay's).
  static func epoch(_ index: Int) -> DueEpoch {
    let minutes = String(index * 6 / 10) + "." + String(index * 6 % 10)
    let latitude = "10" + (index < 17 ? "0" : "") + minutes
    let gga = "GPGGA,120000,\(latitude),N,00100.000,E,1,08,0.9,10.0,M,0.0,M,,"
    let gsv = "GPGSV,1,1,01,\(index + 1 < 10 ? "0" : "")\(index + 1),40,083,46"
    let packets = [gga, gsv].map { Array("$\($0)*\(Checksum.hex(Checksum.of($0.utf8)))\r\n".utf8) }
    return DueEpoch(time: wire, packets: packets, fix: nil)
  }

  static let counts = [
    1, 3, LastFix.unreadLimit, LastFix.unreadLimit + 3, 3 * LastFix.unreadLimit + 1,
  ]

  @Test(arguments: counts)
  func theNewestEpochNotedStandsHoweverManyWereNoted(count: Int) throws {
    let lastFix = LastFix()
    for index in 0..<count { lastFix.note(Self.epoch(index)) }
    let fix = try #require(lastFix.ofLastEpoch())
    #expect(abs(fix.position.latitude - (10 + Double(count - 1) / 100)) < 1e-9)
    #expect(fix.satellites.map(\.id) == [count])
    #expect(lastFix.latest?.position.latitude == fix.position.latitude)
  }
}
