import Foundation
import TestFixtures
import Testing
import UBX

@testable import Receiver

/// The ZED-F9P's legacy CFG messages are views of its keys, as the HPG 1.32 interface
/// description's table of legacy message fields maps them; pyubx2, an independent reading of
/// both layouts, builds the legacy settings from field names and names the keys of the VALGET
/// answers (`Tests/Tools/legacy_keys_oracle.py`), and decodes the legacy polls after VALSET
/// (`Tests/Tools/check_ubx_config.py`).
@Suite(.blocking) struct UbloxLegacyKeyOracleTests {
  typealias Cases = UbloxConfigurationTests

  /// A string as CFG-USB's 32-character fields hold it.
  static func usbString(_ text: String) -> String {
    text + String(repeating: "\u{0}", count: 32 - text.utf8.count)
  }

  /// Legacy settings, by pyubx2's message and field names.
  static var settings: [[String: Any]] {
    [
      [
        "message": "CFG-ANT",
        "fields": [
          "svcs": 0, "scd": 1, "ocd": 0, "pdwnOnSCD": 1, "recovery": 1, "pinSwitch": 5,
          "pinSCD": 6, "pinOCD": 7, "reconfig": 1,
        ],
      ],
      ["message": "CFG-DGNSS", "fields": ["dgnssMode": 2]],
      [
        "message": "CFG-GEOFENCE",
        "fields": [
          "numFences": 2, "confLvl": 3, "pioEnabled": 1, "pinPolarity": 1, "pin": 4,
          "lat_01": 52.5, "lon_01": 13.25, "radius_01": 150.5, "lat_02": -33.9, "lon_02": 151.2,
          "radius_02": 20,
        ],
      ],
      [
        "message": "CFG-INF",
        "fields": [
          "protocolID": 0, "enableError_02": 1, "enableWarning_02": 1, "enableDebug_04": 1,
        ],
      ],
      [
        "message": "CFG-ITFM",
        "fields": [
          "bbThreshold": 5, "cwThreshold": 20, "enable": 1, "antSetting": 2, "enable2": 1,
        ],
      ],
      [
        "message": "CFG-LOGFILTER",
        "fields": [
          "version": 1, "recordEnabled": 1, "applyAllFilterSettings": 1, "minInterval": 5,
          "timeThreshold": 60, "speedThreshold": 3, "positionThreshold": 25,
        ],
      ],
      // minCNO and ackAiding are not flagged in mask1: not applied.
      [
        "message": "CFG-NAVX5",
        "fields": [
          "version": 2, "minMax": 1, "initial3dfix": 1, "wknRoll": 1, "minSVs": 5, "maxSVs": 20,
          "minCNO": 30, "iniFix3D": 1, "ackAiding": 1, "wknRollover": 2300,
        ],
      ],
      [
        "message": "CFG-ODO",
        "fields": [
          "useODO": 1, "useCOG": 1, "outLPCog": 1, "profile": 3, "cogMaxSpeed": 0.5,
          "cogMaxPosAcc": 40, "velLpGain": 100, "cogLpGain": 90,
        ],
      ],
      [
        "message": "CFG-PRT",
        "fields": [
          "portID": 2, "charLen": 2, "parity": 1, "nStopBits": 2, "baudRate": 115_200,
          "inUBX": 1, "inRTCM3": 1, "outUBX": 1, "outRTCM3": 1,
        ],
      ],
      [
        "message": "CFG-PRT",
        "fields": ["portID": 3, "inUBX": 1, "inNMEA": 1, "outNMEA": 1],
      ],
      ["message": "CFG-RATE", "fields": ["measRate": 1000, "navRate": 1, "timeRef": 0]],
      [
        "message": "CFG-TMODE3",
        "fields": [
          "rcvrMode": 2, "lla": 1, "ecefXOrLat": 525_000_000, "ecefYOrLon": 132_500_000,
          "ecefZOrAlt": 3400, "ecefXOrLatHP": 12, "ecefYOrLonHP": -34, "ecefZOrAltHP": 56,
          "fixedPosAcc": 100, "svinMinDur": 60, "svinAccLimit": 5000,
        ],
      ],
      [
        "message": "CFG-USB",
        "fields": [
          "vendorID": 0x1234, "productID": 0x5678, "powerConsumption": 250,
          "vendorString": usbString("Acme Rigs"), "productString": usbString("MockGPS test"),
          "serialNumber": usbString("SN-0042"),
        ],
      ],
      [
        "message": "CFG-DAT",
        "fields": [
          "majA": 6_378_388.0, "flat": 297.0, "dX": -87.0, "dY": -98.0, "dZ": -121.0,
          "rotX": 0.0, "rotY": 0.0, "rotZ": 0.0, "scale": 0.0,
        ],
      ],
    ]
  }

  /// The keys' values after `settings`, by pyubx2's names, per the document's table.
  static let expectedNumbers: [(String, Double)] = [
    ("CFG_HW_ANT_CFG_VOLTCTRL", 0), ("CFG_HW_ANT_CFG_SHORTDET", 1),
    ("CFG_HW_ANT_CFG_OPENDET", 0), ("CFG_HW_ANT_CFG_PWRDOWN", 1), ("CFG_HW_ANT_CFG_RECOVER", 1),
    ("CFG_HW_ANT_SUP_SWITCH_PIN", 5), ("CFG_HW_ANT_SUP_SHORT_PIN", 6),
    ("CFG_HW_ANT_SUP_OPEN_PIN", 7),
    ("CFG_NAVHPG_DGNSSMODE", 2),
    ("CFG_GEOFENCE_CONFLVL", 3), ("CFG_GEOFENCE_USE_PIO", 1), ("CFG_GEOFENCE_PINPOL", 1),
    ("CFG_GEOFENCE_PIN", 4), ("CFG_GEOFENCE_USE_FENCE1", 1), ("CFG_GEOFENCE_USE_FENCE2", 1),
    ("CFG_GEOFENCE_USE_FENCE3", 0), ("CFG_GEOFENCE_FENCE1_LAT", 525_000_000),
    ("CFG_GEOFENCE_FENCE1_LON", 132_500_000), ("CFG_GEOFENCE_FENCE1_RAD", 15050),
    ("CFG_GEOFENCE_FENCE2_LAT", -339_000_000), ("CFG_GEOFENCE_FENCE2_RAD", 2000),
    ("CFG_ITFM_BBTHRESHOLD", 5), ("CFG_ITFM_CWTHRESHOLD", 20), ("CFG_ITFM_ENABLE", 1),
    ("CFG_ITFM_ANTSETTING", 2), ("CFG_ITFM_ENABLE_AUX", 1),
    ("CFG_LOGFILTER_RECORD_ENA", 1), ("CFG_LOGFILTER_ONCE_PER_WAKE_UP_ENA", 0),
    ("CFG_LOGFILTER_APPLY_ALL_FILTERS", 1), ("CFG_LOGFILTER_MIN_INTERVAL", 5),
    ("CFG_LOGFILTER_TIME_THRS", 60), ("CFG_LOGFILTER_SPEED_THRS", 3),
    ("CFG_LOGFILTER_POSITION_THRS", 25),
    ("CFG_NAVSPG_INFIL_MINSVS", 5), ("CFG_NAVSPG_INFIL_MAXSVS", 20),
    ("CFG_NAVSPG_INFIL_MINCNO", 6), ("CFG_NAVSPG_INIFIX3D", 1), ("CFG_NAVSPG_ACKAIDING", 0),
    ("CFG_NAVSPG_WKNROLLOVER", 2300),
    ("CFG_ODO_USE_ODO", 1), ("CFG_ODO_USE_COG", 1), ("CFG_ODO_OUTLPVEL", 0),
    ("CFG_ODO_OUTLPCOG", 1), ("CFG_ODO_PROFILE", 3), ("CFG_ODO_COGMAXSPEED", 5),
    ("CFG_ODO_COGMAXPOSACC", 40), ("CFG_ODO_VELLPGAIN", 100), ("CFG_ODO_COGLPGAIN", 90),
    ("CFG_UART2_BAUDRATE", 115_200), ("CFG_UART2_DATABITS", 1), ("CFG_UART2_PARITY", 1),
    ("CFG_UART2_STOPBITS", 3), ("CFG_UART2INPROT_UBX", 1), ("CFG_UART2INPROT_NMEA", 0),
    ("CFG_UART2INPROT_RTCM3X", 1), ("CFG_UART2OUTPROT_UBX", 1), ("CFG_UART2OUTPROT_NMEA", 0),
    ("CFG_UART2OUTPROT_RTCM3X", 1),
    ("CFG_USBINPROT_UBX", 1), ("CFG_USBINPROT_NMEA", 1), ("CFG_USBINPROT_RTCM3X", 0),
    ("CFG_USBOUTPROT_UBX", 0), ("CFG_USBOUTPROT_NMEA", 1),
    ("CFG_RATE_TIMEREF", 0),
    ("CFG_TMODE_MODE", 2), ("CFG_TMODE_POS_TYPE", 1), ("CFG_TMODE_LAT", 525_000_000),
    ("CFG_TMODE_LON", 132_500_000), ("CFG_TMODE_HEIGHT", 3400), ("CFG_TMODE_LAT_HP", 12),
    ("CFG_TMODE_LON_HP", -34), ("CFG_TMODE_HEIGHT_HP", 56), ("CFG_TMODE_ECEF_X", 0),
    ("CFG_TMODE_FIXED_POS_ACC", 100), ("CFG_TMODE_SVIN_MIN_DUR", 60),
    ("CFG_TMODE_SVIN_ACC_LIMIT", 5000),
    ("CFG_USB_VENDOR_ID", 0x1234), ("CFG_USB_PRODUCT_ID", 0x5678), ("CFG_USB_POWER", 250),
    ("CFG_USB_SELFPOW", 0),
    ("CFG_NAVSPG_USE_USRDAT", 1), ("CFG_NAVSPG_USRDAT_MAJA", 6_378_388),
    ("CFG_NAVSPG_USRDAT_FLAT", 297), ("CFG_NAVSPG_USRDAT_DX", -87),
    ("CFG_NAVSPG_USRDAT_DY", -98), ("CFG_NAVSPG_USRDAT_DZ", -121),
  ]

  /// The X-type keys' values after `settings`, as pyubx2's bytes in hexadecimal.
  static let expectedBytes: [(String, String)] = [
    ("CFG_INFMSG_UBX_UART1", "03"), ("CFG_INFMSG_UBX_USB", "10"), ("CFG_INFMSG_UBX_I2C", "00"),
    ("CFG_USB_VENDOR_STR0", hex("Acme Rig")), ("CFG_USB_VENDOR_STR1", hex("s\0\0\0\0\0\0\0")),
    ("CFG_USB_PRODUCT_STR0", hex("MockGPS ")), ("CFG_USB_PRODUCT_STR1", hex("test\0\0\0\0")),
    ("CFG_USB_SERIAL_NO_STR0", hex("SN-0042\0")),
  ]

  static func hex(_ text: String) -> String {
    text.utf8.map {
      String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
    }
    .joined()
  }

  /// The frames pyubx2 builds for `requests`.
  static func frames(_ requests: [[String: Any]]) throws -> [UBXFrame] {
    let input = try JSONSerialization.data(withJSONObject: requests)
    let built = try PythonTool.json("legacy_keys_oracle.py", input: input, arguments: ["encode"])
    return try ((built["frames"] as? [String]) ?? []).map { text in
      let digits = Array(text.utf8)
      let bytes = stride(from: 0, to: digits.count, by: 2).map {
        UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) ?? 0
      }
      return try UBXFrame(parsing: bytes)
    }
  }

  /// Every item in RAM, by pyubx2's names.
  static func keys(_ handler: inout UbloxCommandHandler) throws -> [String: Any] {
    let count = UBXConfigurationCatalogue.zedF9P.definitions.count
    let answers = stride(from: 0, to: count, by: 64).flatMap {
      UbloxConfigurationOracleTests.replies(
        handler.handle(
          .ubx(UbloxConfigurationFrames.valget([0x0FFF_FFFF], position: UInt16($0)))))
    }
    let decoded = try PythonTool.json(
      "legacy_keys_oracle.py", input: Data(answers), arguments: ["decode"])
    #expect((decoded["errors"] as? [Any])?.isEmpty == true, "\(decoded["errors"] ?? "")")
    return decoded["keys"] as? [String: Any] ?? [:]
  }

  @Test func legacySettingsSetTheKeysTheDocumentMapsThemTo() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let frames = try Self.frames(Self.settings)
    #expect(frames.count == Self.settings.count)
    for frame in frames {
      #expect(handler.handle(.ubx(frame)).first == Cases.ack(frame.messageType))
    }
    let keys = try Self.keys(&handler)
    #expect(keys.count == UBXConfigurationCatalogue.zedF9P.definitions.count)
    for (name, value) in Self.expectedNumbers {
      let number = (keys[name] as? NSNumber)?.doubleValue
      #expect(number == value, "\(name)")
    }
    for (name, value) in Self.expectedBytes {
      #expect(keys[name] as? String == value, "\(name)")
    }
  }

  /// Items a VALSET sets, and the legacy fields (pyubx2's names) that report them after.
  static let valsetItems: [(String, UInt64)] = [
    ("CFG-ODO-PROFILE", 2), ("CFG-TMODE-MODE", 1), ("CFG-TMODE-POS_TYPE", 0),
    ("CFG-TMODE-ECEF_X", 123_456), ("CFG-TMODE-SVIN_MIN_DUR", 300),
    ("CFG-GEOFENCE-USE_FENCE1", 1), ("CFG-GEOFENCE-FENCE1_RAD", 5000),
    ("CFG-GEOFENCE-CONFLVL", 2), ("CFG-UART2-BAUDRATE", 57600), ("CFG-UART2-PARITY", 2),
    ("CFG-UART1-STOPBITS", 3), ("CFG-INFMSG-NMEA_UART1", 0x01), ("CFG-ITFM-BBTHRESHOLD", 7),
    ("CFG-ITFM-ENABLE", 1), ("CFG-HW-ANT_CFG_VOLTCTRL", 1), ("CFG-HW-ANT_SUP_OPEN_PIN", 9),
    ("CFG-LOGFILTER-MIN_INTERVAL", 10), ("CFG-NAVSPG-INFIL_MINSVS", 6),
    ("CFG-NAVSPG-WKNROLLOVER", 2100), ("CFG-NAVHPG-DGNSSMODE", 2), ("CFG-RATE-TIMEREF", 2),
    ("CFG-USB-POWER", 400), ("CFG-USB-SELFPOW", 0), ("CFG-RINV-DUMP", 1),
    ("CFG-RINV-DATA_SIZE", 3), ("CFG-RINV-CHUNK0", 0x43_4241), ("CFG-NAVSPG-USE_USRDAT", 1),
    ("CFG-NAVSPG-USRDAT_MAJA", Double(6_378_388).bitPattern),
  ]

  static let reportedFields:
    [(message: String, filter: (String, Int)?, field: String, value: Double)] = [
      ("CFG-ODO", nil, "profile", 2), ("CFG-TMODE3", nil, "rcvrMode", 1),
      ("CFG-TMODE3", nil, "lla", 0), ("CFG-TMODE3", nil, "ecefXOrLat", 123_456),
      ("CFG-TMODE3", nil, "svinMinDur", 300), ("CFG-GEOFENCE", nil, "numFences", 1),
      ("CFG-GEOFENCE", nil, "radius_01", 50), ("CFG-GEOFENCE", nil, "confLvl", 2),
      ("CFG-PRT", ("portID", 2), "baudRate", 57600), ("CFG-PRT", ("portID", 2), "parity", 0),
      ("CFG-PRT", ("portID", 1), "nStopBits", 2), ("CFG-PRT", ("portID", 1), "charLen", 3),
      ("CFG-INF", ("protocolID", 1), "enableError_02", 1),
      ("CFG-INF", ("protocolID", 1), "enableWarning_02", 0),
      ("CFG-INF", ("protocolID", 1), "enableWarning_03", 1), ("CFG-ITFM", nil, "bbThreshold", 7),
      ("CFG-ITFM", nil, "enable", 1), ("CFG-ANT", nil, "svcs", 1), ("CFG-ANT", nil, "pinOCD", 9),
      ("CFG-LOGFILTER", nil, "minInterval", 10), ("CFG-NAVX5", nil, "minSVs", 6),
      ("CFG-NAVX5", nil, "wknRollover", 2100), ("CFG-DGNSS", nil, "dgnssMode", 2),
      ("CFG-RATE", nil, "timeRef", 2), ("CFG-USB", nil, "powerConsumption", 400),
      ("CFG-USB", nil, "powerMode", 0), ("CFG-RINV", nil, "dump", 1),
      ("CFG-RINV", nil, "data_03", 0x43), ("CFG-DAT", nil, "datumNum", 0xFFFF),
      ("CFG-DAT", nil, "majA", 6_378_388),
    ]

  @Test func legacyPollsReportTheKeysAVALSETSets() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let set = handler.handle(.ubx(UbloxConfigurationFrames.valset(Self.valsetItems)))
    // CFG-NAVHPG-DGNSSMODE 2 among them: the rover keeps its ambiguities float.
    #expect(
      Array(set.prefix(2)) == [
        Cases.ack(.cfgVALSET), .setRover(RTKSettings(fixesAmbiguities: false)),
      ])
    #expect(set.count == 3, "and .setBase for CFG-TMODE-*: \(set)")
    let polls: [UBXFrame] =
      [
        UBXMessageType.cfgODO, .cfgTMODE3, .cfgGEOFENCE, .cfgITFM, .cfgANT, .cfgLOGFILTER,
        .cfgNAVX5, .cfgDGNSS, .cfgRATE, .cfgUSB, .cfgRINV, .cfgDAT,
      ].map { UBXFrame($0) } + [1, 2].map { UBXFrame(.cfgPRT, payload: [$0]) }
      + [UBXFrame(.cfgINF, payload: [1])]
    let bytes = polls.flatMap { UbloxConfigurationOracleTests.replies(handler.handle(.ubx($0))) }
    let decoded = try PythonTool.json("check_ubx_config.py", input: Data(bytes))
    #expect((decoded["errors"] as? [String]) == [], "\(decoded["errors"] ?? "")")
    let messages = UbloxConfigurationOracleTests.messages(decoded)
    #expect(messages.count == polls.count)
    for row in Self.reportedFields {
      let values = messages.filter { $0["identity"] as? String == row.message }.compactMap {
        message -> Double? in
        let fields = message["fields"] as? [String: Any]
        if let filter = row.filter, fields?[filter.0] as? Int != filter.1 { return nil }
        return (fields?[row.field] as? NSNumber)?.doubleValue
      }
      #expect(values == [row.value], "\(row.message).\(row.field)")
    }
  }
}
