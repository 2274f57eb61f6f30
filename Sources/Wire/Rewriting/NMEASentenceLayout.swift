import NMEA

/// Where an NMEA sentence keeps its time, date and positions: one row per sentence type, so
/// that a type is added as data.
///
/// Covered (field numbers from 1 after the address):
/// - time of day: GGA, GLL, RMC, GNS, ZDA, GBS, GST, GRS, GFA, BWC; proprietary PASHR (attitude
///   and POS),
///   PSRFEPE (SiRF), PSTI,030 (SkyTraq), PGRMF (Garmin), PUBX,00 and PUBX,04 (u-blox);
/// - date: RMC, PSTI,030, PGRMF, PUBX,04 (`ddmmyy`); ZDA (day, month, year; the local zone
///   fields are left alone);
/// - GPS week and seconds of week: PGRMF, PUBX,04;
/// - positions: GGA, GLL, RMC, GNS, PASHR,POS (Ashtech), PSTI,030, PGRMF, PUBX,00; the
///   waypoints of RMB and BWC;
/// - altitude above mean sea level: GGA, GNS, PSTI,030; height above the ellipsoid: PASHR,POS
///   (gpsd reads it as altHAE), PUBX,00 (altRef); geoid separation: GGA, GNS.
///
/// Not covered (left as recorded): AIS, TTM/TLL/OSD (targets and own ship from radar), ALR,
/// RLM, the iSync PTNTA date-time, and every other proprietary sentence.
package struct NMEASentenceLayout: Sendable {
  /// How the sentence writes its date.
  enum DateFields: Sendable {
    /// One `ddmmyy` field.
    case dayMonthYear(Int)
    /// ZDA: day, month and four-digit year in three fields.
    case separate(day: Int, month: Int, year: Int)
  }

  /// A latitude field (its hemisphere follows) and a longitude field (ditto).
  package struct Position: Sendable {
    package var latitude: Int
    package var longitude: Int
  }

  var time: Int?
  var date: DateFields?
  /// A GPS week field and a seconds-of-week field.
  var gpsWeek: (week: Int, seconds: Int)?
  package var positions: [Position] = []
  /// A field whose value says the receiver has no fix: its positions are left as recorded.
  var noFix: (field: Int, values: [String])?
  /// The altitude above mean sea level, meters.
  package var meanSeaLevelAltitude: Int?
  /// The height above the ellipsoid, meters.
  package var ellipsoidHeight: Int?
  /// The geoid separation (height of mean sea level above the ellipsoid), meters.
  package var geoidSeparation: Int?

  /// The layout of a sentence: keyed by formatter for talker sentences (`GGA`), by address
  /// for proprietary ones (`PGRMF`), or by address and first field (`PUBX,00`).
  ///
  /// The sentences NMEA parses take their field numbers from their `SentenceSpec`; the others
  /// (which mockgps reads only here) are numbered in this table.
  package static let table: [String: NMEASentenceLayout] = [
    "GGA": GGA.spec.layout(
      time: \.time, positions: [(\.latitude, \.longitude)], noFix: (\.quality, ["0"]),
      meanSeaLevelAltitude: \.altitude, geoidSeparation: \.geoidSeparation),
    "GLL": GLL.spec.layout(
      time: \.time, positions: [(\.latitude, \.longitude)], noFix: (\.status, ["V"])),
    "RMC": RMC.spec.layout(
      time: \.time, date: \.date, positions: [(\.latitude, \.longitude)],
      noFix: (\.status, ["V"])),
    "GNS": GNS.spec.layout(
      time: \.time, positions: [(\.latitude, \.longitude)],
      noFix: (\.mode, ["N", "NN", "NNN", "NNNN", "NNNNN", "NNNNNN"]),
      meanSeaLevelAltitude: \.altitude, geoidSeparation: \.geoidSeparation),
    "ZDA": ZDA.spec.layout(time: \.time, separateDate: (\.day, \.month, \.year)),
    "GBS": .init(time: 1),
    "GST": GST.spec.layout(time: \.time),
    "GRS": .init(time: 1),
    "GFA": .init(time: 1),
    "BWC": .init(time: 1, positions: [.init(latitude: 2, longitude: 4)]),
    "RMB": .init(positions: [.init(latitude: 6, longitude: 8)], noFix: (1, ["V"])),
    "PASHR": .init(time: 1),
    "PASHR,POS": .init(
      time: 4, positions: [.init(latitude: 5, longitude: 7)], noFix: (2, [""]),
      ellipsoidHeight: 9),
    "PSRFEPE": .init(time: 1),
    "PSTI,030": .init(
      time: 2, date: .dayMonthYear(12), positions: [.init(latitude: 4, longitude: 6)],
      noFix: (3, ["V"]), meanSeaLevelAltitude: 8),
    "PGRMF": .init(
      time: 4, date: .dayMonthYear(3), gpsWeek: (1, 2),
      positions: [.init(latitude: 6, longitude: 8)], noFix: (11, ["0"])),
    "PUBX,00": .init(
      time: 2, positions: [.init(latitude: 3, longitude: 5)], noFix: (8, ["NF"]),
      ellipsoidHeight: 7),
    "PUBX,04": .init(time: 2, date: .dayMonthYear(3), gpsWeek: (5, 4)),
  ]

  /// The layout of a sentence taken apart, or nil for a type that holds nothing to rewrite.
  package static func of(_ sentence: NMEASentenceText) -> NMEASentenceLayout? {
    entry(of: sentence)?.layout
  }

  /// The key of `table` a sentence is found under (`GGA`, `PGRMF`, `PUBX,00`) and its layout,
  /// or nil for a type that holds nothing to rewrite.
  package static func entry(of sentence: NMEASentenceText) -> (key: String, layout: Self)? {
    func found(_ key: String) -> (key: String, layout: Self)? { table[key].map { (key, $0) } }
    let address = sentence.address
    if address.first == UInt8(ascii: "P") {
      if sentence.fields.count > 1, sentence.fields[1].count <= 4,
        let entry = found(
          String(decoding: address + [UInt8(ascii: ",")] + sentence.fields[1], as: UTF8.self))
      {
        return entry
      }
      return found(String(decoding: address, as: UTF8.self))
    }
    guard address.count == 5 else { return nil }
    return found(String(decoding: address.suffix(3), as: UTF8.self))
  }

  /// True when the sentence says it has no fix.
  package func saysNoFix(_ sentence: NMEASentenceText) -> Bool {
    guard let noFix else { return false }
    let value = String(decoding: sentence[noFix.field], as: UTF8.self)
    return noFix.values.contains(value)
  }
}
