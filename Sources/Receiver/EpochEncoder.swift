import Geodesy
import NMEA
import Simulation

/// Turns a fix into the sentences a receiver sends in one epoch, in the NMEA dialect of its chip.
///
/// `EpochEncoder()` is the generic NMEA 2.3 receiver (`NMEADialect.generic`): the order of a
/// u-blox 6/7 in its default configuration (RMC, VTG, GGA, GSA, GSV…, GLL, then ZDA), GP talker,
/// 5 decimals of minutes. `EpochEncoder(profile:)` writes a profile's dialect.
///
/// Every field is normalised into the range its sentence allows, whatever the fix holds, so a
/// bad value from a scenario never reaches the wire and never traps:
/// - A value that is not finite (NaN, ±infinity) leaves its field empty. A latitude or longitude
///   that is not finite reports the epoch without a position, as without a fix (status V,
///   quality 0, mode N).
/// - Speed over ground is a magnitude: a negative speed is written as its magnitude with the
///   course turned by 180°, since moving backwards along c is moving forwards along c + 180.
///   Speeds are capped at `maximumSpeedMetersPerSecond`.
/// - Courses and azimuths are rounded to the digits written, then reduced to 0 up to but excluding
///   360 (359.996° is `0.00`, -10° is `350.00`).
/// - Elevations are clamped to 0…90; a satellite below the horizon (elevation below 0) is not in
///   view and is not listed. SNR is clamped to 0…99. A satellite whose ID does not fit the two
///   digits of GSA and GSV (1…99) is not listed either.
/// - DOPs are capped at `maximumDOP`; altitude and geoid separation are clamped to
///   `altitudeRangeMeters` and `geoidSeparationRangeMeters`.
///
/// With these limits and up to 5 digits of minutes every sentence fits in 82 bytes.
public struct EpochEncoder: Sendable {
  /// The sentence types (without talker) the generic receiver sends, in order.
  public static let sentenceOrder = NMEADialect.generic.sentenceOrder
  /// The largest DOP written; receivers report 99.99 for anything worse.
  public static let maximumDOP = 99.99
  /// The largest speed written, in meters per second (9719.222 knots, 18000 km/h).
  public static let maximumSpeedMetersPerSecond = 5000.0
  /// The altitudes written, meters: the range a `GeodeticPosition` accepts.
  public static let altitudeRangeMeters = -1000.0...100_000.0
  /// The geoid separations written, meters: what `xxx.x` holds (the real geoid lies within about
  /// ±110 m of the ellipsoid).
  public static let geoidSeparationRangeMeters = -999.9...999.9
  /// The most satellites listed in GSV: nine pages of four, as the one-digit message count allows.
  public static let maximumSatellitesInView = 36

  /// How the chip writes NMEA.
  public var dialect = NMEADialect.generic {
    didSet { forgetEpochs() }
  }
  /// Digits of decimal minutes in latitude and longitude; 5 keeps a round trip within 2e-7°.
  public var minuteDigits: Int {
    get { dialect.minuteDigits }
    set { dialect.minuteDigits = newValue }
  }
  /// The constellations this receiver tracks.
  ///
  /// Only their satellites are counted in GGA, listed in GSA and shown in GSV, so the three agree.
  /// The generic (NMEA 2.3) dialect writes them all under the GP talker, GLONASS as 65–88, as
  /// NMEA 2.3 receivers do, and leaves out Galileo and BeiDou, which 2.3 cannot number.
  public var constellations: Set<Constellation> = [.gps] {
    didSet { forgetEpochs() }
  }
  /// The sentence types sent each epoch, without talker (`"GSV"`); a configuration command can
  /// switch them on and off. They are always sent in the dialect's order; other names are
  /// ignored.
  public var enabledSentences = Set(EpochEncoder.sentenceOrder)
  /// The lines of the last epoch written, for the next to take where a sentence has not
  /// changed. Shared by copies of the encoder, which costs them hits, never bytes.
  let lineMemo = EpochLineMemo()
  /// The satellites listed at the last epoch and their GSV pages, for the next to take when it
  /// lists the same. Shared by copies while they keep the dialect and constellations.
  private(set) var skyMemo = EpochSkyMemo()
  /// The last epoch's lines, for the next to take when its fix differs in its time alone.
  /// Shared by copies while they keep the dialect and constellations.
  private(set) var textMemo = EpochTextMemo()
  /// The rates of the dialect's sentence types in the last output selection asked about.
  private(set) var ratesMemo = NMEARatesMemo()
  /// The sentence types (without talker) whose text changes from one epoch to the next even
  /// for a fix that differs in its time alone, beyond their time field: PUBX,04's UTC time of
  /// week and clock bias. `EpochTextMemo` never keeps them.
  static let changingEachEpoch: Set<String> = ["PUBX,04"]
  /// `changingEachEpoch` as bits of the dialect's order (`sentBits`).
  private(set) var changingBits: UInt64 = 0

  /// Creates the generic encoder.
  public init() {}

  /// The sentences of one epoch, in the order they are sent.
  public func sentences(for fix: Fix) -> [RawSentence] {
    var sink = EpochRawSentences()
    write(fix, to: &sink, sending: sentBits(enabledSentences.contains))
    return sink.sentences
  }

  /// The lines of one epoch as they go on the wire, in the order they are sent, each ending in
  /// CR LF.
  public func lines(for fix: Fix) -> [[UInt8]] {
    epochLines(for: fix, sending: sentBits(enabledSentences.contains))
  }

  /// The bytes of one epoch, every sentence ending in CR LF.
  public func bytes(for fix: Fix) -> [UInt8] {
    lines(for: fix).concatenated()
  }

  /// Forgets the epochs listed and written: they are of other settings. (An initializer that
  /// sets the dialect calls it: a property's observers do not run in its type's initializers.)
  mutating func forgetEpochs() {
    skyMemo = EpochSkyMemo()
    textMemo = EpochTextMemo()
    ratesMemo = NMEARatesMemo()
    changingBits = sentBits(Self.changingEachEpoch.contains)
  }

  /// The sentence types of the dialect's order (the first 64) that `sends` accepts, as bits by
  /// their place in it.
  func sentBits(_ sends: (String) -> Bool) -> UInt64 {
    var bits: UInt64 = 0
    for (index, type) in dialect.sentenceOrder.prefix(64).enumerated() where sends(type) {
      bits |= 1 << UInt64(index)
    }
    return bits
  }

  /// The lines of one epoch that sends the sentences of `sent` (`sentBits`): the last epoch's
  /// with the time patched when the fix differs in its time alone (`EpochTextMemo`), else
  /// written anew. An epoch that sends a sentence changing beyond its time field from one
  /// second to the next for the same fix (`changingEachEpoch`: PUBX,04's time of week and clock
  /// bias) is always written anew.
  func epochLines(for fix: Fix, sending sent: UInt64) -> [[UInt8]] {
    guard sent & changingBits == 0 else {
      var sink = EpochLines(memo: lineMemo)
      write(fix, to: &sink, sending: sent)
      return sink.lines
    }
    let (rounded, time, _) = EpochFields.timeAndDate(of: fix.time, dialect: dialect)
    let day = rounded.startOfDay
    if let lines = textMemo.lines(for: fix, sent: sent, day: day, time: time) { return lines }
    var sink = EpochLines(memo: lineMemo)
    write(fix, to: &sink, sending: sent)
    textMemo.keep(
      sink.lines, timeFields: sink.timeFields, fix: fix, sent: sent, day: day, time: time)
    return sink.lines
  }

  /// Hands `sink` the sentences of one epoch whose types `sent` holds (`sentBits`), in the
  /// dialect's order.
  func write(_ fix: Fix, to sink: inout some EpochSentenceSink, sending sent: UInt64) {
    let fields = EpochFields(fix: fix, dialect: dialect)
    let skyKey = EpochSkyMemo.Key(satellites: fix.satellites, hasFix: fields.hasFix)
    let sky = skyMemo.sky(for: skyKey) {
      EpochSky(fix: fix, hasFix: fields.hasFix, constellations: constellations, dialect: dialect)
    }
    let talker = dialect.solutionTalker(sky.systems)
    for (index, type) in dialect.sentenceOrder.prefix(64).enumerated()
    where sent & 1 << UInt64(index) != 0 {
      switch type {
      case "RMC": sink.append(rmc(fields, talker: talker))
      case "VTG": sink.append(vtg(fields, talker: talker))
      case "GGA": gga(fields, sky, talker: talker, to: &sink)
      case "GSA": gsa(fields, sky, talker: talker, to: &sink)
      case "GSV":
        for page in skyMemo.gsvPages(for: skyKey, otherwise: { gsvPages(sky) }) {
          sink.append(page)
        }
      case "GLL": sink.append(gll(fields, talker: talker))
      case "ZDA": sink.append(zda(fields, talker: talker))
      case "GST": sink.append(gst(fields, talker: talker))
      case "GNS": sink.append(gns(fields, sky, talker: talker))
      case "GBS": sink.append(gbs(fields, talker: talker))
      case "GRS": grs(fields, sky, talker: talker, to: &sink)
      case "DTM": sink.append(dtm(talker: talker))
      case "VLW": sink.append(vlw(talker: talker))
      case "PUBX,00": sink.append(pubxPosition(fields, sky))
      case "PUBX,03": sink.append(pubxSatelliteStatus(fields, sky))
      case "PUBX,04": sink.append(pubxTime(fields))
      default: break
      }
    }
  }

  func rmc(_ f: EpochFields, talker: String) -> RMC {
    var rmc = RMC()
    rmc.talker = talker
    rmc.time = f.time
    rmc.status = f.hasFix ? "A" : "V"
    rmc.latitude = f.latitude
    rmc.longitude = f.longitude
    rmc.speedKnots = f.speedKnots
    rmc.course = f.course
    rmc.date = f.date
    rmc.mode = f.modeIndicator
    if dialect.version >= .v410 { rmc.navigationalStatus = dialect.navigationalStatus }
    return rmc
  }

  func vtg(_ f: EpochFields, talker: String) -> VTG {
    var vtg = VTG()
    vtg.talker = talker
    vtg.courseTrue = f.course
    vtg.courseTrueUnit = "T"
    vtg.courseMagneticUnit = "M"
    vtg.speedKnots = f.speedKnots
    vtg.speedKnotsUnit = "N"
    vtg.speedKilometersPerHour = f.speedKilometersPerHour
    vtg.speedKilometersPerHourUnit = "K"
    vtg.mode = f.modeIndicator
    return vtg
  }

  /// One GGA for the solution, or one per system under its talker (SiRFstarV).
  func gga(
    _ f: EpochFields, _ sky: EpochSky, talker: String, to sink: inout some EpochSentenceSink
  ) {
    guard dialect.ggaPerSystem, dialect.combinedTalker != nil else {
      sink.append(gga(f, talker: talker, usedCount: sky.used.count))
      return
    }
    for system in sky.systems {
      sink.append(gga(f, talker: system.talker, usedCount: sky.used(of: system).count))
    }
  }

  func gga(_ f: EpochFields, talker: String, usedCount: Int) -> GGA {
    var gga = GGA()
    gga.talker = talker
    gga.time = f.time
    gga.latitude = f.latitude
    gga.longitude = f.longitude
    gga.quality = NMEADecimal(integer: f.quality)
    gga.satellitesUsed = NMEADecimal(integer: usedCount, width: dialect.satellitesUsedWidth)
    gga.hdop = f.hdop
    gga.altitude = f.altitude
    gga.geoidSeparation = f.geoidSeparation
    gga.altitudeUnit = "M"
    gga.geoidSeparationUnit = "M"
    gga.dgpsAge = f.correctionAge
    gga.dgpsStation = f.correctionStation
    if f.fix.correction == .none { gga.dgpsStation = dialect.ggaStationWithoutCorrection }
    return gga
  }

  /// One GSA for all systems, or one per system (with its system ID from NMEA 4.10 on).
  func gsa(
    _ f: EpochFields, _ sky: EpochSky, talker: String, to sink: inout some EpochSentenceSink
  ) {
    forEachGSAGroup(of: sky) { used, system in
      sink.append(
        gsa(
          f, used: used, talker: talker,
          system: dialect.version >= .v410 ? system?.systemID : nil))
    }
  }

  /// Calls `body` with the used satellites of each group GSA (and GRS) lists: one per system
  /// where the dialect writes a GSA per system, else one of all systems (`system` nil).
  func forEachGSAGroup(
    of sky: EpochSky, _ body: (_ used: [ListedSatellite], _ system: Constellation?) -> Void
  ) {
    guard dialect.gsaPerSystem, dialect.combinedTalker != nil else {
      body(sky.used, nil)
      return
    }
    for system in sky.systems { body(sky.used(of: system), system) }
  }

  func gsa(_ f: EpochFields, used: [ListedSatellite], talker: String, system: Int?) -> GSA {
    var gsa = GSA()
    gsa.talker = talker
    gsa.selectionMode = "A"
    gsa.fixType = NMEADecimal(integer: f.mode.rawValue)
    gsa.satelliteIDs = used.prefix(12).map { NMEADecimal(integer: $0.number, width: 2) }
    gsa.satelliteIDs += repeatElement(nil, count: 12 - gsa.satelliteIDs.count)
    gsa.pdop = f.pdop
    gsa.hdop = f.hdop
    gsa.vdop = f.vdop
    gsa.systemID = system.map { NMEADecimal(integer: $0) }
    return gsa
  }

  /// The GSV pages: one group for all satellites under GP (NMEA 2.3), or one per system under
  /// its talker, repeated per signal from 4.10 on; under the solution's talker instead where
  /// the dialect says so, each group cut to the dialect's limit.
  func gsvPages(_ sky: EpochSky) -> [GSV] {
    var pages: [GSV] = []
    let limit = dialect.gsvSatelliteLimit ?? EpochEncoder.maximumSatellitesInView
    let main = dialect.gsvUsesMainTalker ? dialect.solutionTalker(sky.systems) : nil
    guard sky.groupsBySystem else {
      gsvPages(sky.inView.prefix(limit), talker: main ?? "GP", signal: nil, into: &pages)
      return pages
    }
    for system in sky.systems {
      let listed = Array(sky.inView(of: system).prefix(limit))
      let talker = main ?? dialect.systemTalker(system)
      guard let signals = dialect.gsvSignals(system) else {
        gsvPages(listed[...], talker: talker, signal: nil, into: &pages)
        continue
      }
      // A system listed with another (SBAS with GPS) broadcasts only the first signal, L1 C/A.
      for (index, signal) in signals.enumerated() {
        let onSignal = index == 0 ? listed : listed.filter { $0.satellite.constellation == system }
        gsvPages(onSignal[...], talker: talker, signal: .some(signal), into: &pages)
      }
    }
    return pages
  }

  /// Appends the pages of one GSV group to `pages`; `signal` is nil without a signal field,
  /// `.some(nil)` with an empty one.
  func gsvPages(
    _ visible: ArraySlice<ListedSatellite>, talker: String, signal: Int??,
    into pages: inout [GSV]
  ) {
    let count = max(1, (visible.count + 3) / 4)
    for page in 0..<count {
      var gsv = GSV()
      gsv.talker = talker
      gsv.messageCount = NMEADecimal(integer: count)
      gsv.messageNumber = NMEADecimal(integer: page + 1)
      gsv.satellitesInView = NMEADecimal(integer: visible.count, width: 2)
      gsv.satellites = visible.dropFirst(page * 4).prefix(4).map { listed in
        let satellite = listed.satellite
        return GSV.Satellite(
          id: NMEADecimal(integer: listed.number, width: 2),
          elevation: satellite.elevation.isFinite
            ? NMEADecimal(integer: Int(min(90, satellite.elevation.rounded())), width: 2) : nil,
          azimuth: EpochFields.angle(satellite.azimuth, fractionDigits: 0),
          snr: satellite.snr.map { NMEADecimal(integer: min(99, max(0, $0)), width: 2) })
      }
      if let signal {
        gsv.signalID = signal.map { NMEADecimal(integer: $0) }
        if signal == nil { gsv.fieldCount = 3 + gsv.satellites.count * 4 + 1 }
      }
      pages.append(gsv)
    }
  }

  func gll(_ f: EpochFields, talker: String) -> GLL {
    var gll = GLL()
    gll.talker = talker
    gll.latitude = f.latitude
    gll.longitude = f.longitude
    gll.time = f.time
    gll.status = f.hasFix ? "A" : "V"
    gll.mode = f.modeIndicator
    return gll
  }

  func zda(_ f: EpochFields, talker: String) -> ZDA {
    let civil = f.roundedTime.civil
    var zda = ZDA()
    zda.talker = talker
    zda.time = f.time
    zda.day = NMEADecimal(integer: civil.day, width: 2)
    zda.month = NMEADecimal(integer: civil.month, width: 2)
    zda.year = NMEADecimal(integer: civil.year, width: 4)
    zda.zoneHours = dialect.zdaZone.map { NMEADecimal(integer: $0, width: 2) }
    zda.zoneMinutes = dialect.zdaZone.map { _ in NMEADecimal(integer: 0, width: 2) }
    return zda
  }
}
