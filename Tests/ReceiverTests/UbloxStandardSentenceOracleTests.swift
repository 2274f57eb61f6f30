import Foundation
import Geodesy
import NMEA
import Receiver
import Simulation
import TestFixtures
import Testing
import UBX

/// GBS, GRS, DTM and VLW as each u-blox profile writes them for a known fix once switched on,
/// decoded by pynmeagps (`Tests/Tools/nmea_fields.py`): every line accepted, and the fields it
/// reads are the fix's.
@Suite(.blocking) struct UbloxStandardSentenceOracleTests {
  static let profiles = [ReceiverProfile.ubloxM8, .ubloxF9P].map(\.name)

  /// The sentences of one epoch of `ProfileDecodeTests`' four-system fix with GBS, GRS, DTM
  /// and VLW switched on beside the factory output, decoded.
  static func decodedEpoch(_ name: String) throws -> (fix: Fix, sentences: [[String: Any]]) {
    let profile = try #require(ReceiverProfile.named(name))
    var encoder = ReceiverEncoder(profile: profile)
    for type in ["GBS", "GRS", "DTM", "VLW", "PUBX,00", "PUBX,03", "PUBX,04"] {
      encoder.output.nmea[type] = 1
    }
    var fix = try ProfileDecodeTests.fix(epoch: 3)
    fix.climbMetersPerSecond = 1.25
    let text = encoder.sentences(for: fix, epochIndex: 0).map(\.line).joined()
    let decoded = try PythonTool.json("nmea_fields.py", input: Data(text.utf8))
    #expect((decoded["errors"] as? [String])?.isEmpty == true, "\(decoded["errors"] ?? "")")
    return (fix, try #require(decoded["sentences"] as? [[String: Any]]))
  }

  static func fields(_ sentence: [String: Any]) -> [String: Any] {
    sentence["fields"] as? [String: Any] ?? [:]
  }

  static func of(_ type: String, in sentences: [[String: Any]]) -> [[String: Any]] {
    sentences.filter { $0["msgID"] as? String == type }
  }

  /// The PUBX sentences of message `id` (`"04"`), as pynmeagps names them all `UBX`.
  static func pubx(_ id: String, in sentences: [[String: Any]]) -> [[String: Any]] {
    of("UBX", in: sentences).filter { fields($0)["msgId"] as? String == id }
  }

  /// The fix's time as NMEA writes it.
  static func time(_ fix: Fix) -> String {
    let civil = fix.time.civil
    return String(format: "%02d%02d%02d.00", civil.hour, civil.minute, civil.second)
  }

  @Test(arguments: profiles)
  func gbsHasTheFixsExpectedErrorsAndNoFailedSatellite(_ name: String) throws {
    let (fix, sentences) = try Self.decodedEpoch(name)
    let gbs = Self.of("GBS", in: sentences)
    try #require(gbs.count == 1)
    #expect(gbs[0]["talker"] as? String == "GN")
    let fields = Self.fields(gbs[0])
    let dop = try #require(fix.dop)
    // The u-blox range error (2.5 m, 1σ) times the north, east and vertical DOPs, to 0.1 m.
    let meters = { (value: Double) in (value * 2.5 * 10).rounded() / 10 }
    #expect(fields["time"] as? String == Self.time(fix))
    #expect(fields["errLat"] as? Double == meters(dop.north))
    #expect(fields["errLon"] as? Double == meters(dop.east))
    #expect(fields["errAlt"] as? Double == meters(dop.vertical))
    for empty in ["svid", "prob", "bias", "stddev", "systemId", "signalId"] {
      #expect(fields[empty] as? String == "", "\(empty)")
    }
  }

  @Test(arguments: profiles)
  func grsHasAZeroResidualPerUsedSatelliteOfEachSystemAsGSA(_ name: String) throws {
    let (fix, sentences) = try Self.decodedEpoch(name)
    let gsa = Self.of("GSA", in: sentences).map(Self.fields)
    let grs = Self.of("GRS", in: sentences).map(Self.fields)
    try #require(grs.count == gsa.count)
    let profile = try #require(ReceiverProfile.named(name))
    for (residuals, used) in zip(grs, gsa) {
      #expect(residuals["time"] as? String == Self.time(fix))
      #expect(residuals["mode"] as? Int == 1)
      #expect(residuals["systemId"] as? String == used["systemId"] as? String)
      let usedSlots = (1...12).filter { "\(used[String(format: "svid_%02d", $0)] ?? "")" != "" }
      let filled = (1...12).filter {
        "\(residuals[String(format: "residual_%02d", $0)] ?? "")" != ""
      }
      #expect(filled == usedSlots)
      for slot in filled {
        #expect(residuals[String(format: "residual_%02d", slot)] as? Double == 0)
      }
      // The signal of the system's first GSV group: L1 C/A (1) but Galileo's E1 (7).
      let system = used["systemId"] as? String
      let signal = system == "3" ? "7" : "1"
      #expect(residuals["signalId"] as? String == signal, "\(profile.name) system \(system ?? "")")
    }
    let tracked = fix.satellitesUsed.filter {
      profile.defaultConstellations.contains($0.constellation)
    }
    let usedSystems = Set(tracked.map(\.constellation.systemID))
    #expect(Set(grs.compactMap { Int($0["systemId"] as? String ?? "") }) == usedSystems)
  }

  @Test(arguments: profiles)
  func dtmSaysWGS84AndVLWNoDistance(_ name: String) throws {
    let (_, sentences) = try Self.decodedEpoch(name)
    let dtm = Self.of("DTM", in: sentences).map(Self.fields)
    try #require(dtm.count == 1)
    #expect(dtm[0]["datum"] as? String == "W84")
    #expect(dtm[0]["refDatum"] as? String == "W84")
    for offset in ["latOfset", "lonOfset", "alt"] { #expect(dtm[0][offset] as? Double == 0) }
    let vlw = Self.of("VLW", in: sentences).map(Self.fields)
    try #require(vlw.count == 1)
    #expect(vlw[0]["twd"] as? String == "")
    #expect(vlw[0]["wd"] as? String == "")
    #expect(vlw[0]["tgd"] as? Double == 0)
    #expect(vlw[0]["gd"] as? Double == 0)
    for unit in ["twdUnit", "wdUnit", "tgdUnit", "gdUnit"] {
      #expect(vlw[0][unit] as? String == "N")
    }
  }

  @Test(arguments: profiles)
  func theNewSentencesComeInTheChipsOrder(_ name: String) throws {
    let (_, sentences) = try Self.decodedEpoch(name)
    var order: [String] = []
    for case let type as String in sentences.map({ $0["msgID"] }) where order.last != type {
      order.append(type)
    }
    #expect(
      order == ["RMC", "VTG", "GGA", "GSA", "GSV", "GLL", "GRS", "GBS", "DTM", "VLW", "UBX"])
  }

  @Test(arguments: profiles)
  func pubxPositionIsTheFix(_ name: String) throws {
    let (fix, sentences) = try Self.decodedEpoch(name)
    let pubx = Self.pubx("00", in: sentences).map(Self.fields)
    try #require(pubx.count == 1)
    let fields = pubx[0]
    let dop = try #require(fix.dop)
    let number = { (key: String) in fields[key] as? Double ?? .nan }
    let meters = { (value: Double) in (value * 2.5 * 10).rounded() / 10 }
    #expect(fields["msgId"] as? String == "00")
    #expect(fields["time"] as? String == Self.time(fix))
    // To the 6 digits of minutes the chips write in PUBX,00 (5 in their standard sentences).
    #expect(abs(number("lat") - fix.position.latitude) <= 0.6 / 60 / 1_000_000)
    #expect(abs(number("lon") - fix.position.longitude) <= 0.6 / 60 / 1_000_000)
    let height = fix.position.altitudeMeters + fix.geoidSeparationMeters
    #expect(abs(number("altRef") - height) <= 0.0005)
    #expect(fields["navStat"] as? String == "G3")
    #expect(number("hAcc") == meters(dop.horizontal))
    #expect(number("vAcc") == meters(dop.vertical))
    #expect(abs(number("SOG") - fix.speedMetersPerSecond * 3.6) <= 0.0005)
    #expect(abs(number("COG") - fix.courseDegrees) <= 0.005)
    #expect(abs(number("vVel") + fix.climbMetersPerSecond) <= 0.0005)
    #expect(fields["diffAge"] as? String == "")
    for (key, value) in [("HDOP", dop.horizontal), ("VDOP", dop.vertical), ("TDOP", dop.time)] {
      #expect(abs(number(key) - value) <= 0.005, "\(key)")
    }
    let profile = try #require(ReceiverProfile.named(name))
    let used = fix.satellitesUsed.filter {
      profile.defaultConstellations.contains($0.constellation)
    }
    #expect(fields["numSVs"] as? Int == used.count)
  }

  /// PUBX,00 writes the receiver description's example position as the example does: six
  /// digits of minutes, where GGA and RMC write five.
  @Test(arguments: profiles)
  func pubxPositionWritesSixDigitsOfMinutes(_ name: String) throws {
    var encoder = ReceiverEncoder(profile: try #require(ReceiverProfile.named(name)))
    encoder.output.nmea["PUBX,00"] = 1
    var fix = try ProfileDecodeTests.fix(epoch: 3)
    let latitude = 47 + 17.113210 / 60
    let longitude = 8 + 33.915187 / 60
    fix.position = try GeodeticPosition(
      latitude: latitude, longitude: longitude, altitudeMeters: 500)
    let lines = encoder.sentences(for: fix, epochIndex: 0).map(\.line)
    let pubx = try #require(lines.first { $0.hasPrefix("$PUBX,00,") }).split(separator: ",")
    let expected: [Substring] = ["4717.113210", "N", "00833.915187", "E"]
    #expect(Array(pubx[3...6]) == expected)
    let gga = try #require(lines.first { $0.dropFirst(3).hasPrefix("GGA,") }).split(separator: ",")
    let standard: [Substring] = ["4717.11321", "N", "00833.91519", "E"]
    #expect(Array(gga[2...5]) == standard)
  }

  /// PUBX,03 lists the satellites GSV lists that are tracked, by NAV-SVINFO's numbers, `U`
  /// for those used, with the sky's azimuth, elevation and C/N0.
  @Test(arguments: profiles)
  func pubxSatelliteStatusIsTheSky(_ name: String) throws {
    let (fix, sentences) = try Self.decodedEpoch(name)
    let pubx = Self.pubx("03", in: sentences).map(Self.fields)
    try #require(pubx.count == 1)
    let fields = pubx[0]
    let count = try #require(fields["numSv"] as? Int)
    let profile = try #require(ReceiverProfile.named(name))
    let tracked = fix.satellites.filter {
      profile.defaultConstellations.contains($0.constellation) && $0.snr != nil
        && $0.elevation >= 0
    }
    #expect(count == tracked.count)
    var listed: [Int: (status: String, azimuth: Double, elevation: Double, cno: Int)] = [:]
    for index in 1...max(count, 1) where count > 0 {
      let key = String(format: "_%02d", index)
      guard let number = fields["svid" + key] as? Int else { continue }
      listed[number] = (
        fields["status" + key] as? String ?? "", fields["azi" + key] as? Double ?? .nan,
        fields["ele" + key] as? Double ?? .nan, fields["cno" + key] as? Int ?? -1
      )
      #expect(fields["lck" + key] as? Int == 64)
    }
    for satellite in tracked {
      let entry = try #require(
        listed[Self.svinfoNumber(satellite)], "\(satellite.constellation) \(satellite.id)")
      #expect(entry.status == (satellite.isUsed ? "U" : "e"))
      #expect(entry.azimuth == Double(Int(satellite.azimuth.rounded()) % 360))
      #expect(entry.elevation == satellite.elevation.rounded())
      #expect(entry.cno == satellite.snr)
    }
  }

  /// A satellite's number in NAV-SVINFO's single numbering, as the u-blox 8 description
  /// tabulates it: GPS 1–32, SBAS 120–158, BeiDou 159–163 then 33–64, GLONASS 65–96, Galileo
  /// 211–246.
  static func svinfoNumber(_ satellite: SatelliteInView) -> Int {
    let id = satellite.id
    switch satellite.constellation {
    case .glonass: return 64 + id
    case .galileo: return 210 + id
    case .beidou: return id <= 5 ? 158 + id : 27 + id
    default: return id
    }
  }

  /// The NAV-CLOCK bias (ns) and drift (ns/s) a profile reports for `fix`.
  static func navigationClock(_ name: String, _ fix: Fix) throws -> (bias: Int32, drift: Int32) {
    let profile = try #require(ReceiverProfile.named(name))
    let frame = try #require(UBXNavigationEncoder(profile: profile).frame(.navCLOCK, for: fix))
    let word = { (offset: Int) in
      Int32(
        bitPattern: frame.payload[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
      )
    }
    return (word(4), word(8))
  }

  /// The UTC week and time of week of `fix` counted from the GPS epoch (1980-01-06, Unix time
  /// 315964800) on UTC's scale, as text: `"2070"`, `"532351.00"`.
  static func utcWeekAndTimeOfWeek(_ fix: Fix) -> (week: String, timeOfWeek: String) {
    let seconds = Int(fix.time.nanoseconds / 1_000_000_000) - 315_964_800
    return (String(seconds / 604_800), String(format: "%d.00", seconds % 604_800))
  }

  @Test(arguments: profiles)
  func pubxTimeIsTheFixsTimeAndNAVCLOCKsClock(_ name: String) throws {
    let (fix, sentences) = try Self.decodedEpoch(name)
    let pubx = Self.pubx("04", in: sentences).map(Self.fields)
    try #require(pubx.count == 1)
    let fields = pubx[0]
    let civil = fix.time.civil
    #expect(fields["time"] as? String == Self.time(fix))
    #expect(
      fields["date"] as? String
        == String(format: "%02d%02d%02d", civil.day, civil.month, civil.year % 100))
    let (week, timeOfWeek) = Self.utcWeekAndTimeOfWeek(fix)
    #expect(fields["utcTow"] as? String == timeOfWeek)
    #expect(fields["utcWk"] as? String == week)
    #expect(fields["leapSec"] as? String == "18")
    let clock = try Self.navigationClock(name, fix)
    #expect(fields["clkBias"] as? Double == Double(clock.bias))
    #expect(fields["clkDrift"] as? Double == Double(clock.drift))
    #expect(fields["tpGran"] as? Int == 0)
  }

  /// The time of an M8's PUBX,04 capture (`PUBXTimeTests.capture`) gives its time fields.
  @Test(arguments: profiles)
  func pubxTimeWritesTheCapturesTimeFields(_ name: String) throws {
    var encoder = ReceiverEncoder(profile: try #require(ReceiverProfile.named(name)))
    encoder.output.nmea["PUBX,04"] = 1
    var fix = try ProfileDecodeTests.fix(epoch: 3)
    fix.time = UTCInstant(year: 2019, month: 9, day: 14, hour: 3, minute: 52, second: 31)
    let line = try #require(
      encoder.sentences(for: fix, epochIndex: 0).first { $0.address == "PUBX" })
    #expect(
      Array(line.fields.prefix(6)) == ["04", "035231.00", "140919", "532351.00", "2070", "18"])
  }

  /// PUBX,04 changes beyond its time field from one second to the next for the same fix: the
  /// lines the device sends (`lines(for:epochIndex:)`, which reuses the last epoch's text for a
  /// fix that differs in its time alone) carry each second's time of week and clock bias.
  @Test(arguments: profiles)
  func consecutiveEpochsOneSecondApartGiveUTCTimeOfWeekOneSecondApart(_ name: String) throws {
    var encoder = ReceiverEncoder(profile: try #require(ReceiverProfile.named(name)))
    encoder.output.nmea["PUBX,04"] = 1
    encoder.output.nmea["ZDA"] = 1
    let first = try ProfileDecodeTests.fix(epoch: 3)
    var second = first
    second.time = first.time.adding(nanoseconds: 1_000_000_000)
    var times: [(timeOfWeek: Double, bias: Double)] = []
    for (index, fix) in [first, second, first, second].enumerated() {
      let lines = encoder.lines(for: fix, epochIndex: index).map {
        String(decoding: $0, as: UTF8.self)
      }
      let pubx = try #require(lines.first { $0.hasPrefix("$PUBX,04,") })
      let raw = try RawSentence(parsing: pubx.trimmingCharacters(in: .newlines))
      #expect(raw.fields[3] == Self.utcWeekAndTimeOfWeek(fix).timeOfWeek)
      let clock = try Self.navigationClock(name, fix)
      #expect(Int32(raw.fields[6]) == clock.bias)
      times.append((try #require(Double(raw.fields[3])), try #require(Double(raw.fields[6]))))
    }
    #expect(times[1].timeOfWeek - times[0].timeOfWeek == 1)
    #expect(times[1].bias != times[0].bias)
  }
}
