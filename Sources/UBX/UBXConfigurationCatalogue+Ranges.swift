// The values the ZED-F9P (HPG 1.32) accepts for the items that have fewer than their type
// allows: on each line the values allowed, single or as ranges `LOW-HIGH`, a colon, then the
// items that allow them.
//
// Checked item by item against the text of the interface description (UBX-22008968 R01), as
// converted to Markdown in github.com/gis82802/LLM_UAV_Design (commit b817ab4c, under
// `data/en/sensors/ublox/md/ZED-F9P-module_md/`). An enumeration (type E1) takes the constants
// of its table in the configuration chapter (6.9, "Constants for CFG-…"), but for those the
// same document's legacy field (3.10) denies protocol 27.31: CFG-NAVSPG-DYNMODEL's 10 to 12
// (motorbike, lawn mower, e-scooter: UBX-CFG-NAV5's dynModel gives them to protocols 19.20,
// 33.21 and 35.10, and the ZED-F9P integration manual R16, table 14, lists portable to
// wrist-worn only) and CFG-RATE-TIMEREF's 5 (NavIC: UBX-CFG-RATE's timeRef, not before 29.00).
// CFG-TP-TIMEGRID_TP1's 5 (NavIC) and CFG-NAVSPG-UTCSTANDARD's 8 and 9 (NPLI, NICT) are in
// their tables with no such note.
// CFG-NMEA-PROTVER's 42 is NMEA 4.11. The rates are the limits the document gives the items
// the emulator models: CFG-RATE-MEAS at least 25 ms, CFG-RATE-NAV 1 to 127 measurements per
// solution.

extension UBXConfigurationCatalogue {
  /// The allowed values of the ZED-F9P's restricted items, as `allowedValues(text:)` reads them.
  static let zedF9PRangesText = """
    0-1: CFG-TMODE-POS_TYPE CFG-TP-PULSE_DEF CFG-TP-PULSE_LENGTH_DEF CFG-GEOFENCE-PINPOL
    0-1: CFG-UART1-DATABITS CFG-UART2-DATABITS CFG-NMEA-SVNUMBERING CFG-NMEA-GSVTALKERID
    0-1: CFG-TXREADY-INTERFACE CFG-HW-ANT_SUP_ENGINE CFG-SPARTN-USE_SOURCE
    0-2: CFG-TMODE-MODE CFG-RTCM-DF003_IN_FILTER CFG-ITFM-ANTSETTING
    0-2: CFG-UART1-PARITY CFG-UART2-PARITY
    0-3: CFG-TP-DRSTR_TP1 CFG-UART1-STOPBITS CFG-UART2-STOPBITS
    0-4: CFG-RATE-TIMEREF CFG-ODO-PROFILE
    0-5: CFG-TP-TIMEGRID_TP1 CFG-GEOFENCE-CONFLVL
    1-3: CFG-NAVSPG-FIXMODE
    2-3: CFG-NAVHPG-DGNSSMODE
    0 3 5-9: CFG-NAVSPG-UTCSTANDARD
    0 2-9: CFG-NAVSPG-DYNMODEL
    21 23 40-42: CFG-NMEA-PROTVER
    0 8 12 16: CFG-NMEA-MAXSVS
    0-5 7: CFG-NMEA-MAINTALKERID
    25-65535: CFG-RATE-MEAS
    1-127: CFG-RATE-NAV
    """

  /// Parses lines `VALUE…: NAME…` (a value `N` or a range `LOW-HIGH`) into the allowed values
  /// of each item of `definitions` by key; a name that is no item, or a line whose values do
  /// not parse, is left out (the catalogue's tests check that every name of the shipped table
  /// is used).
  static func allowedValues(text: String, definitions: [UBXConfigurationDefinition])
    -> [UInt32: [ClosedRange<UInt64>]]
  {
    let keys = Dictionary(
      definitions.map { ($0.name, $0.key.rawValue) }, uniquingKeysWith: { first, _ in first })
    var allowed: [UInt32: [ClosedRange<UInt64>]] = [:]
    for line in text.split(separator: "\n") {
      let sides = line.split(separator: ":")
      guard sides.count == 2 else { continue }
      let ranges = sides[0].split(separator: " ").map { field -> ClosedRange<UInt64>? in
        let bounds = field.split(separator: "-").map { UInt64($0) }
        guard let low = bounds.first ?? nil, let high = bounds.last ?? nil, bounds.count <= 2,
          low <= high
        else { return nil }
        return low...high
      }
      guard !ranges.isEmpty, ranges.allSatisfy({ $0 != nil }) else { continue }
      for name in sides[1].split(separator: " ") {
        if let key = keys[String(name)] { allowed[key] = ranges.compactMap { $0 } }
      }
    }
    return allowed
  }
}
