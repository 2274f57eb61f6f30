import Geodesy
import NMEA
import Simulation
import UBX

/// The fix a receiver reports in what it sends, read back from one epoch's packets: what a
/// replay and a passthrough tell `status` and their `subscribe` lines, as a simulated receiver
/// tells the fix it computed.
///
/// NMEA: GGA (time, position, altitude, quality, geoid separation), RMC and GLL (position
/// without altitude, status, mode), RMC and VTG (speed, course), GSA (fix type, DOPs, satellites
/// used), GSV (satellites in view, kept for the epochs without one), RMC's and ZDA's dates (as a replay reads them). UBX: NAV-PVT, which wins over the
/// sentences of its epoch. A sentence is read with or without its checksum; one that does not
/// parse is left out. GGA gives only the time of day: the date is the last one met, else the
/// epoch's wire date. Satellites are numbered as NMEA writes them: GPS 1–32, GLONASS 65–96,
/// Galileo and BeiDou under their own talker; others (SBAS, QZSS) are left out.
public struct SentFixDecoder: Sendable {
  /// The last date met: GGA carries none.
  private var date: (year: Int, month: Int, day: Int)?
  /// The last position reported, for an epoch without one (no fix).
  private var lastPosition: GeodeticPosition?
  /// The satellites in view of the last GSV: receivers send GSV every few epochs (gpsd keeps
  /// the sky until the next).
  private var lastInView: [SatelliteKey: SatelliteInView] = [:]

  /// A decoder that has met nothing yet.
  public init() {}

  /// What one epoch's sentences and frames say, gathered before it becomes a fix.
  private struct Reported {
    var time: (hour: Int, minute: Int, nanoseconds: Int64)?
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var geoidSeparation: Double?
    var quality: Int?
    var valid: Bool?
    var correction: Fix.Correction?
    var fixType: Int?
    var speed: Double?
    var course: Double?
    var climb: Double?
    var dop: DilutionOfPrecision?
    var inView: [SatelliteKey: SatelliteInView] = [:]
    /// True once the epoch had a GSV (then `inView` is its sky, empty or not).
    var listedSky = false
    var used: Set<SatelliteKey> = []
    var instant: UTCInstant?
  }

  /// A satellite by system and number.
  private struct SatelliteKey: Hashable {
    var constellation: Constellation
    var id: Int
  }

  /// The fix `packets` report, or nil when they report no time or no position was ever met.
  /// `wireTime` is when the epoch was sent: its date stands in until a sentence gives one.
  public mutating func fix(of packets: some Sequence<[UInt8]>, wireTime: UTCInstant) -> Fix? {
    var reported = Reported()
    for packet in packets {
      if packet.first == UInt8(ascii: "$") {
        read(sentence: packet, into: &reported)
      } else if let frame = try? UBXFrame(parsing: packet), frame.messageType == .navPVT {
        read(pvt: frame.payload, into: &reported)
      }
    }
    return fix(from: reported, wireTime: wireTime)
  }

  private mutating func fix(from reported: Reported, wireTime: UTCInstant) -> Fix? {
    var instant = reported.instant
    if instant == nil, let time = reported.time {
      let day = date ?? (wireTime.civil.year, wireTime.civil.month, wireTime.civil.day)
      instant = UTCInstant(
        year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute
      ).adding(nanoseconds: time.nanoseconds)
    }
    if let latitude = reported.latitude, let longitude = reported.longitude,
      let position = try? GeodeticPosition(
        latitude: latitude, longitude: longitude, altitudeMeters: reported.altitude ?? 0)
    {
      lastPosition = position
    }
    if reported.listedSky { lastInView = reported.inView }
    guard let instant, let position = lastPosition else { return nil }
    var fix = Fix(
      time: instant, mode: mode(of: reported), position: position,
      geoidSeparationMeters: reported.geoidSeparation ?? 0,
      speedMetersPerSecond: reported.speed ?? 0, courseDegrees: reported.course ?? 0,
      satellites: lastInView.values.sorted {
        ($0.constellation.systemID, $0.id) < ($1.constellation.systemID, $1.id)
      }.map { satellite in
        var satellite = satellite
        satellite.isUsed = reported.used.contains(
          SatelliteKey(constellation: satellite.constellation, id: satellite.id))
        return satellite
      },
      dop: reported.dop, climbMetersPerSecond: reported.climb ?? 0)
    if fix.mode != .noFix {
      fix.correction = reported.correction ?? Self.correction(quality: reported.quality)
    }
    return fix
  }

  private func mode(of reported: Reported) -> Fix.Mode {
    if let type = reported.fixType { return Fix.Mode(rawValue: type) ?? .noFix }
    if reported.quality == 0 || reported.valid == false || reported.latitude == nil {
      return .noFix
    }
    return reported.altitude == nil ? .twoDimensional : .threeDimensional
  }

  /// GGA's quality as a correction: 2 differential, 4 RTK fixed, 5 RTK float.
  private static func correction(quality: Int?) -> Fix.Correction {
    switch quality {
    case 2: return .differential
    case 4: return .rtkFixed
    case 5: return .rtkFloat
    default: return .none
    }
  }

  /// RMC's and GNS's mode letter as a correction.
  private static func correction(mode: String?) -> Fix.Correction? {
    switch mode {
    case "D": return .differential
    case "R": return .rtkFixed
    case "F": return .rtkFloat
    case "A": return Fix.Correction.none
    default: return nil
    }
  }

  private mutating func read(sentence packet: [UInt8], into reported: inout Reported) {
    var text = Substring(decoding: packet, as: UTF8.self)
    while let last = text.last, last == "\r" || last == "\n" { text = text.dropLast() }
    guard let message = try? NMEAMessage(parsing: text, requireChecksum: false) else { return }
    if let day = NMEASentenceTimes.date(of: packet) { date = (day.year, day.month, day.day) }
    switch message {
    case .gga(let gga):
      reported.time = gga.time.map(Self.timeOfDay) ?? reported.time
      reported.latitude = gga.latitude?.degreesValue ?? reported.latitude
      reported.longitude = gga.longitude?.degreesValue ?? reported.longitude
      reported.altitude = gga.altitude?.doubleValue ?? reported.altitude
      reported.geoidSeparation = gga.geoidSeparation?.doubleValue ?? reported.geoidSeparation
      reported.quality = gga.quality?.integerValue ?? reported.quality
    case .rmc(let rmc):
      reported.time = reported.time ?? rmc.time.map(Self.timeOfDay)
      reported.latitude = reported.latitude ?? rmc.latitude?.degreesValue
      reported.longitude = reported.longitude ?? rmc.longitude?.degreesValue
      reported.valid = rmc.status.map { $0 == "A" } ?? reported.valid
      reported.speed =
        rmc.speedKnots.map { $0.doubleValue * Self.metersPerSecondPerKnot } ?? reported.speed
      reported.course = rmc.course?.doubleValue ?? reported.course
      reported.correction = Self.correction(mode: rmc.mode) ?? reported.correction
    case .gll(let gll):
      reported.time = reported.time ?? gll.time.map(Self.timeOfDay)
      reported.latitude = reported.latitude ?? gll.latitude?.degreesValue
      reported.longitude = reported.longitude ?? gll.longitude?.degreesValue
      reported.valid = reported.valid ?? gll.status.map { $0 == "A" }
    case .vtg(let vtg):
      reported.course = reported.course ?? vtg.courseTrue?.doubleValue
      reported.speed =
        reported.speed ?? vtg.speedKilometersPerHour.map { $0.doubleValue / 3.6 }
    case .zda:
      return
    case .gsa(let gsa):
      read(gsa, into: &reported)
    case .gsv(let gsv):
      read(gsv, into: &reported)
    case .other:
      return
    }
  }

  private func read(_ gsa: GSA, into reported: inout Reported) {
    if let type = gsa.fixType?.integerValue, (1...3).contains(type) {
      reported.fixType = max(reported.fixType ?? 0, type)
    }
    let system = gsa.systemID?.integerValue.flatMap(Self.constellation(systemID:))
    for id in gsa.satelliteIDs.compactMap({ $0?.integerValue }) {
      if let key = Self.key(number: id, talker: gsa.talker, system: system) {
        reported.used.insert(key)
      }
    }
    if let pdop = gsa.pdop?.doubleValue, let hdop = gsa.hdop?.doubleValue,
      let vdop = gsa.vdop?.doubleValue, reported.dop == nil
    {
      reported.dop = DilutionOfPrecision(position: pdop, horizontal: hdop, vertical: vdop, time: 0)
    }
  }

  private func read(_ gsv: GSV, into reported: inout Reported) {
    reported.listedSky = true
    for satellite in gsv.satellites {
      guard let number = satellite.id?.integerValue,
        let key = Self.key(number: number, talker: gsv.talker, system: nil)
      else { continue }
      let snr = satellite.snr?.integerValue
      let seen = SatelliteInView(
        constellation: key.constellation, id: key.id,
        elevation: satellite.elevation?.doubleValue ?? 0,
        azimuth: satellite.azimuth?.doubleValue ?? 0, snr: snr, isUsed: false)
      // NMEA 4.11 lists a satellite once per signal: the strongest is kept.
      if let known = reported.inView[key], (known.snr ?? -1) >= (snr ?? -1) { continue }
      reported.inView[key] = seen
    }
  }

  private mutating func read(pvt payload: [UInt8], into reported: inout Reported) {
    guard payload.count >= 92 else { return }
    // The fields in order, from iTOW to pDOP (92 bytes checked: none is missing).
    var fields = UBXPayloadReader(payload)
    _ = fields.u4()
    let year = Int(fields.u2() ?? 0)
    let (month, day, hour, minute, second) = (
      Int(fields.u1() ?? 0), Int(fields.u1() ?? 0), Int(fields.u1() ?? 0),
      Int(fields.u1() ?? 0), Int(fields.u1() ?? 0)
    )
    let valid = fields.u1() ?? 0
    _ = fields.u4()
    let nano = Int64(fields.i4() ?? 0)
    let fixType = Int(fields.u1() ?? 0)
    let flags = fields.u1() ?? 0
    _ = (fields.u1(), fields.u1())
    let (longitude, latitude, height, hMSL) = (
      fields.i4() ?? 0, fields.i4() ?? 0, fields.i4() ?? 0, fields.i4() ?? 0
    )
    _ = (fields.u4(), fields.u4(), fields.i4(), fields.i4())
    let (down, groundSpeed, heading) = (fields.i4() ?? 0, fields.i4() ?? 0, fields.i4() ?? 0)
    _ = (fields.u4(), fields.u4())
    let pdop = Double(fields.u2() ?? 0) / 100
    // The years a sentence's date may have (`NMEASentenceTimes`): others are corrupt, and
    // beyond the instants there are.
    if valid & 0x03 == 0x03, (1980...2200).contains(year), (1...12).contains(month),
      (1...31).contains(day)
    {
      date = (year, month, day)
      reported.instant = UTCInstant(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second
      ).adding(nanoseconds: nano)
    }
    let fixOK = flags & 0x01 != 0
    reported.fixType = fixOK ? [0: 1, 1: 1, 2: 2, 3: 3, 4: 3, 5: 1][fixType] ?? 1 : 1
    guard fixOK else { return }
    reported.latitude = Double(latitude) * 1e-7
    reported.longitude = Double(longitude) * 1e-7
    reported.altitude = Double(hMSL) / 1000
    reported.geoidSeparation = (Double(height) - Double(hMSL)) / 1000
    reported.speed = Double(groundSpeed) / 1000
    reported.course = Double(heading) * 1e-5
    reported.climb = -Double(down) / 1000
    switch flags >> 6 {
    case 1: reported.correction = .rtkFloat
    case 2: reported.correction = .rtkFixed
    default: reported.correction = flags & 0x02 != 0 ? .differential : Fix.Correction.none
    }
    if reported.dop == nil, pdop > 0 {
      reported.dop = DilutionOfPrecision(position: pdop, horizontal: 0, vertical: 0, time: 0)
    }
  }

  /// A satellite as NMEA numbers it under `talker` (and NMEA 4.10's system ID in GSA), or nil
  /// for one of another system.
  private static func key(number: Int, talker: String, system: Constellation?)
    -> SatelliteKey?
  {
    if (65...96).contains(number), system == nil || system == .glonass {
      return SatelliteKey(constellation: .glonass, id: number - 64)
    }
    let constellation =
      system
      ?? {
        switch talker {
        case "GP", "GN": return .gps
        case "GL": return .glonass
        case "GA": return .galileo
        case "GB", "BD": return .beidou
        default: return nil
        }
      }()
    switch constellation {
    case .gps where (1...32).contains(number): return SatelliteKey(constellation: .gps, id: number)
    case .galileo where (1...36).contains(number), .beidou where (1...63).contains(number):
      return constellation.map { SatelliteKey(constellation: $0, id: number) }
    default: return nil
    }
  }

  /// NMEA 4.10's system ID: 1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou.
  private static func constellation(systemID: Int) -> Constellation? {
    Constellation.allCases.first { $0.systemID == systemID }
  }

  /// An NMEA time of day: hours, minutes and the nanoseconds of the rest.
  private static func timeOfDay(_ time: NMEATime) -> (hour: Int, minute: Int, nanoseconds: Int64) {
    (time.hours, time.minutes, UTCInstant.clampedNanoseconds(time.seconds.doubleValue * 1e9))
  }

  private static let metersPerSecondPerKnot = 1852.0 / 3600
}
