import UBX

/// The table of legacy message fields and their keys of the ZED-F9P interface description
/// (HPG 1.32, UBX-22008968, "Legacy UBX message fields reference"), with the fields' places
/// from the same document's UBX-CFG chapter.
extension UbloxCommandHandler {
  typealias Field = LegacyKeyField

  /// The fields of each legacy message that u-blox 9 keeps in keys.
  static let legacyKeyFields: [UBXMessageType: [LegacyKeyField]] = [
    .cfgNAV5: navigationFields,
    .cfgNAVX5: navigationExpertFields,
    .cfgRATE: [Field(key: 0x2021_0003, offset: 4, width: 2)],  // timeRef: CFG-RATE-TIMEREF
    .cfgSBAS: sbasFields,
    .cfgPRT: portFields,
    .cfgINF: informationFields,
    .cfgANT: antennaFields,
    .cfgDAT: datumFields,
    .cfgDGNSS: [Field(key: 0x2014_0011, offset: 0, width: 1)],  // dgnssMode: CFG-NAVHPG-DGNSSMODE
    .cfgGEOFENCE: geofenceFields,
    .cfgITFM: interferenceFields,
    .cfgLOGFILTER: logFilterFields,
    .cfgODO: odometerFields,
    .cfgRINV: remoteInventoryFields,
    .cfgTMODE3: timeModeFields,
    .cfgUSB: usbFields,
  ]

  /// A one-bit field.
  static func flag(_ key: UInt32, _ offset: Int, bit: Int, width: Int = 1) -> Field {
    Field(key: key, offset: offset, width: width, bit: bit, bitCount: 1)
  }

  /// CFG-NAV5 and CFG-NAVSPG-*; the static hold is CFG-MOT-*; tAcc is both OUTFIL_TACC and
  /// OUTFIL_FACC (reported from TACC).
  static let navigationFields: [Field] = [
    Field(key: 0x2011_0021, offset: 2, width: 1),  // dynModel: CFG-NAVSPG-DYNMODEL
    Field(key: 0x2011_0011, offset: 3, width: 1),  // fixMode: FIXMODE
    Field(key: 0x4011_00C1, offset: 4, width: 4),  // fixedAlt: CONSTR_ALT
    Field(key: 0x4011_00C2, offset: 8, width: 4),  // fixedAltVar: CONSTR_ALTVAR
    Field(key: 0x2011_00A4, offset: 12, width: 1),  // minElev: INFIL_MINELEV
    Field(key: 0x3011_00B1, offset: 14, width: 2),  // pDop: OUTFIL_PDOP
    Field(key: 0x3011_00B2, offset: 16, width: 2),  // tDop: OUTFIL_TDOP
    Field(key: 0x3011_00B3, offset: 18, width: 2),  // pAcc: OUTFIL_PACC
    Field(key: 0x3011_00B4, offset: 20, width: 2),  // tAcc: OUTFIL_TACC
    Field(key: 0x3011_00B5, offset: 20, width: 2, isViewed: false),  // tAcc: OUTFIL_FACC
    Field(key: 0x2025_0038, offset: 22, width: 1),  // staticHoldThresh: CFG-MOT-GNSSSPEED_THRS
    Field(key: 0x2011_00C4, offset: 23, width: 1),  // dgnssTimeout: CONSTR_DGNSSTO
    Field(key: 0x2011_00AA, offset: 24, width: 1),  // cnoThreshNumSVs: INFIL_NCNOTHRS
    Field(key: 0x2011_00AB, offset: 25, width: 1),  // cnoThresh: INFIL_CNOTHRS
    Field(key: 0x3025_003B, offset: 28, width: 2),  // staticHoldMaxDist: CFG-MOT-GNSSDIST_THRS
    Field(key: 0x2011_001C, offset: 30, width: 1),  // utcStandard: UTCSTANDARD
  ]

  /// CFG-NAVX5 (version 2): each field applied only when its bit of mask1 is set.
  static let navigationExpertFields: [Field] = {
    func masked(_ key: UInt32, _ offset: Int, width: Int = 1, maskBit: Int) -> Field {
      Field(
        key: key, offset: offset, width: width,
        condition: .init(offset: 2 + maskBit / 8, bit: maskBit % 8))
    }
    var rollover = masked(0x3011_0017, 18, width: 2, maskBit: 9)  // wknRollover: WKNROLLOVER
    rollover.zeroIsDefault = true
    return [
      masked(0x2011_00A1, 10, maskBit: 2),  // minSVs: CFG-NAVSPG-INFIL_MINSVS
      masked(0x2011_00A2, 11, maskBit: 2),  // maxSVs: INFIL_MAXSVS
      masked(0x2011_00A3, 12, maskBit: 3),  // minCNO: INFIL_MINCNO
      masked(0x1011_0013, 14, maskBit: 6),  // iniFix3D: INIFIX3D
      masked(0x1011_0025, 17, maskBit: 10),  // ackAiding: ACKAIDING
      rollover,
    ]
  }()

  /// CFG-SBAS: mode enabled (CFG-SIGNAL-SBAS_ENA) and test (CFG-SBAS-USE_TESTMODE); usage
  /// range, diffCorr, integrity (USE_RANGING, _DIFFCORR, _INTEGRITY); scanmode1 (PRN 120–151)
  /// and scanmode2 (PRN 152–158) in CFG-SBAS-PRNSCANMASK.
  static let sbasFields: [Field] = [
    flag(0x1031_0020, 0, bit: 0), flag(0x1036_0002, 0, bit: 1),
    flag(0x1036_0003, 1, bit: 0), flag(0x1036_0004, 1, bit: 1), flag(0x1036_0005, 1, bit: 2),
    Field(key: 0x5036_0006, offset: 4, width: 4),
    Field(key: 0x5036_0006, offset: 3, width: 1, bitCount: 7, keyShift: 32),
  ]

  /// A port's protocols: inProtoMask and outProtoMask's UBX, NMEA and RTCM 3 bits, with the
  /// keys' group numbers (CFG-UART1INPROT-* is 0x1073_000x).
  static func protocolFields(
    port: UInt16, inGroup: UInt32, outGroup: UInt32, output: Bool = true
  ) -> [Field] {
    let bits: [(bit: Int, item: UInt32)] = [(0, 1), (1, 2), (5, 4)]
    let inputs = bits.map {
      flag(0x1000_0000 | inGroup << 16 | $0.item, 12, bit: $0.bit, width: 2).at(port)
    }
    let outputs = bits.filter { output || $0.item == 4 }.map {
      flag(0x1000_0000 | outGroup << 16 | $0.item, 14, bit: $0.bit, width: 2).at(port)
    }
    return inputs + outputs
  }

  /// A UART's mode: charLen (5–8 bits; the keys take 7 and 8), parity, nStopBits, as
  /// CFG-UARTx-DATABITS, PARITY and STOPBITS code them.
  static func uartModeFields(port: UInt16, group: UInt32) -> [Field] {
    [
      Field(
        key: 0x2000_0003 | group << 16, instance: port, offset: 4, width: 4, bit: 6,
        bitCount: 2, translation: [(3, 0), (2, 1)]),
      Field(
        key: 0x2000_0004 | group << 16, instance: port, offset: 4, width: 4, bit: 9,
        bitCount: 3, translation: [(4, 0), (1, 1), (0, 2), (5, 0)]),
      Field(
        key: 0x2000_0002 | group << 16, instance: port, offset: 4, width: 4, bit: 12,
        bitCount: 2, translation: [(3, 0), (0, 1), (1, 2), (2, 3)]),
    ]
  }

  /// CFG-PRT's ports, I2C (0), UART1 (1), UART2 (2), USB (3) and SPI (4). UART1's baud and
  /// output UBX and NMEA are the handler's own; the TX-ready field is `+LegacyTXReady`'s; the
  /// protocol masks' CFG-xxx-ENABLED is not modelled.
  static let portFields: [Field] = {
    var fields: [Field] = [
      Field(key: 0x2051_0001, offset: 4, width: 1),  // slaveAddr (mode bits 1–7): CFG-I2C-ADDRESS
      flag(0x1051_0002, 16, bit: 1),  // extendedTxTimeout: CFG-I2C-EXTENDEDTIMEOUT
    ]
    fields += protocolFields(port: 0, inGroup: 0x71, outGroup: 0x72)
    fields += uartModeFields(port: 1, group: 0x52)
    fields += protocolFields(port: 1, inGroup: 0x73, outGroup: 0x74, output: false)
    fields.append(Field(key: 0x4053_0001, instance: 2, offset: 8, width: 4))  // UART2-BAUDRATE
    fields += uartModeFields(port: 2, group: 0x53)
    fields += protocolFields(port: 2, inGroup: 0x75, outGroup: 0x76)
    fields += protocolFields(port: 3, inGroup: 0x77, outGroup: 0x78)
    // spiMode (mode bits 1–2): CFG-SPI-CPHASE and CPOLARITY; ffCnt (bits 8–13): MAXFF.
    fields += [flag(0x1064_0003, 4, bit: 1).at(4), flag(0x1064_0002, 4, bit: 2).at(4)]
    fields.append(Field(key: 0x2064_0001, instance: 4, offset: 5, width: 1, bitCount: 6))
    fields.append(flag(0x1064_0005, 16, bit: 1).at(4))  // CFG-SPI-EXTENDEDTIMEOUT
    return fields + protocolFields(port: 4, inGroup: 0x79, outGroup: 0x7A)
  }()

  /// CFG-INF: infMsgMask's byte for each port (I2C, UART1, UART2, USB, SPI) of the UBX (0)
  /// and NMEA (1) protocols: CFG-INFMSG-UBX_I2C… and NMEA_I2C….
  static let informationFields: [Field] = (0..<10).map { index in
    Field(key: 0x2092_0001 + UInt32(index), offset: 4 + index % 5, width: 1).at(
      UInt16(index / 5))
  }

  /// CFG-ANT: the flags svcs, scd, ocd, pdwnOnSCD and recovery (CFG-HW-ANT_CFG_*), and the
  /// pins (CFG-HW-ANT_SUP_*_PIN), which only a setting with `reconfig` changes.
  static let antennaFields: [Field] = {
    let reconfig = Field.Condition(offset: 3, bit: 7)
    return [
      flag(0x10A3_002E, 0, bit: 0, width: 2), flag(0x10A3_002F, 0, bit: 1, width: 2),
      flag(0x10A3_0031, 0, bit: 2, width: 2), flag(0x10A3_0033, 0, bit: 3, width: 2),
      flag(0x10A3_0035, 0, bit: 4, width: 2),
      Field(key: 0x20A3_0036, offset: 2, width: 2, bit: 0, bitCount: 5, condition: reconfig),
      Field(key: 0x20A3_0037, offset: 2, width: 2, bit: 5, bitCount: 5, condition: reconfig),
      Field(key: 0x20A3_0038, offset: 2, width: 2, bit: 10, bitCount: 5, condition: reconfig),
    ]
  }()

  /// CFG-DAT as its poll reports it (52 bytes): a user datum sets CFG-NAVSPG-USE_USRDAT and
  /// the USRDAT_* keys (majA and flat R8, the rest R4).
  static let datumFields: [Field] = {
    var fields = [
      Field(key: 0x1011_0061, offset: 0, width: 2, translation: [(0xFFFF, 1), (0, 0)]),
      Field(key: 0x5011_0062, offset: 8, width: 8), Field(key: 0x5011_0063, offset: 16, width: 8),
    ]
    for index in 0..<7 {
      fields.append(Field(key: 0x4011_0064 + UInt32(index), offset: 24 + 4 * index, width: 4))
    }
    return fields
  }()

  /// CFG-GEOFENCE: confLvl, pioEnabled, pinPolarity, pin, and per fence in use
  /// (CFG-GEOFENCE-USE_FENCEn, from numFences) its lat, lon and radius.
  static let geofenceFields: [Field] = {
    var fields = [
      Field(key: 0x2024_0011, offset: 2, width: 1), Field(key: 0x1024_0012, offset: 4, width: 1),
      Field(key: 0x2024_0013, offset: 5, width: 1), Field(key: 0x2024_0014, offset: 6, width: 1),
    ]
    for (index, key) in fenceUseKeys.enumerated() {
      let inUse: [(bits: UInt64, key: UInt64)] = (0...4).map { (UInt64($0), $0 > index ? 1 : 0) }
      fields.append(Field(key: key, offset: 1, width: 1, translation: inUse, isViewed: false))
    }
    for fence in 0..<4 {
      for item in 0..<3 {
        let offset = fenceHeaderLength + fenceBlockLength * fence + 4 * item
        let key: UInt32 = 0x4024_0021 + UInt32(fence) * 0x10 + UInt32(item)
        fields.append(Field(key: key, offset: offset, width: 4))
      }
    }
    return fields
  }()

  /// CFG-ITFM: config's bbThreshold, cwThreshold and enable, config2's antSetting and enable2.
  static let interferenceFields: [Field] = [
    Field(key: 0x2041_0001, offset: 0, width: 4, bit: 0, bitCount: 4),
    Field(key: 0x2041_0002, offset: 0, width: 4, bit: 4, bitCount: 5),
    flag(0x1041_000D, 0, bit: 31, width: 4),
    Field(key: 0x2041_0010, offset: 4, width: 4, bit: 12, bitCount: 2),
    flag(0x1041_0013, 4, bit: 14, width: 4),
  ]

  /// CFG-LOGFILTER: the flags recordEnabled, psmOncePerWakupEnabled, applyAllFilterSettings;
  /// minInterval, timeThreshold, speedThreshold, positionThreshold.
  static let logFilterFields: [Field] = [
    flag(0x10DE_0002, 1, bit: 0), flag(0x10DE_0003, 1, bit: 1), flag(0x10DE_0004, 1, bit: 2),
    Field(key: 0x30DE_0005, offset: 2, width: 2), Field(key: 0x30DE_0006, offset: 4, width: 2),
    Field(key: 0x30DE_0007, offset: 6, width: 2), Field(key: 0x40DE_0008, offset: 8, width: 4),
  ]

  /// CFG-ODO: the flags useODO, useCOG, outLPVel, outLPCog; odoCfg's profile; cogMaxSpeed,
  /// cogMaxPosAcc, velLpGain, cogLpGain.
  static let odometerFields: [Field] = [
    flag(0x1022_0001, 4, bit: 0), flag(0x1022_0002, 4, bit: 1), flag(0x1022_0003, 4, bit: 2),
    flag(0x1022_0004, 4, bit: 3), Field(key: 0x2022_0005, offset: 5, width: 1, bitCount: 3),
    Field(key: 0x2022_0021, offset: 12, width: 1), Field(key: 0x2022_0022, offset: 13, width: 1),
    Field(key: 0x2022_0031, offset: 16, width: 1), Field(key: 0x2022_0032, offset: 17, width: 1),
  ]

  /// CFG-RINV: the flags dump and binary; the data in CFG-RINV-CHUNK0…3 (8 bytes each) and
  /// its length in DATA_SIZE (`+LegacyKeyShapes`).
  static let remoteInventoryFields: [Field] = {
    var fields = [flag(0x10C7_0001, 0, bit: 0), flag(0x10C7_0002, 0, bit: 1)]
    for chunk in 0..<4 {
      fields.append(Field(key: 0x50C7_0004 + UInt32(chunk), offset: 1 + 8 * chunk, width: 8))
    }
    return fields
  }()

  /// CFG-TMODE3: flags' mode and lla (CFG-TMODE-MODE, POS_TYPE); the position in ECEF or
  /// LLH keys as lla says, with their high-precision parts; fixedPosAcc, svinMinDur,
  /// svinAccLimit.
  static let timeModeFields: [Field] = {
    let ecef = Field.Condition(offset: 3, bit: 0, isSet: false, selectsKey: true)
    let llh = Field.Condition(offset: 3, bit: 0, isSet: true, selectsKey: true)
    var fields = [Field(key: 0x2003_0001, offset: 2, width: 1), flag(0x2003_0002, 3, bit: 0)]
    for axis in 0..<3 {
      let index = UInt32(axis)
      fields += [
        Field(key: 0x4003_0003 + index, offset: 4 + 4 * axis, width: 4, condition: ecef),
        Field(key: 0x4003_0009 + index, offset: 4 + 4 * axis, width: 4, condition: llh),
        Field(key: 0x2003_0006 + index, offset: 16 + axis, width: 1, condition: ecef),
        Field(key: 0x2003_000C + index, offset: 16 + axis, width: 1, condition: llh),
      ]
    }
    fields += [
      Field(key: 0x4003_000F, offset: 20, width: 4), Field(key: 0x4003_0010, offset: 24, width: 4),
      Field(key: 0x4003_0011, offset: 28, width: 4),
    ]
    return fields
  }()

  /// CFG-USB: vendorID, productID, powerConsumption, flags' powerMode (CFG-USB-SELFPOW), and
  /// the vendor, product and serial number strings in four 8-byte keys each.
  static let usbFields: [Field] = {
    var fields = [
      Field(key: 0x3065_000A, offset: 0, width: 2), Field(key: 0x3065_000B, offset: 2, width: 2),
      Field(key: 0x3065_000C, offset: 8, width: 2), flag(0x1065_0002, 10, bit: 1, width: 2),
    ]
    for index in 0..<12 {
      fields.append(Field(key: 0x5065_000D + UInt32(index), offset: 12 + 8 * index, width: 8))
    }
    return fields
  }()
}
