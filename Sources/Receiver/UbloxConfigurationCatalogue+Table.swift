import UBX

/// The rows of the catalogue, with the factory values of the receiver description's defaults.
extension UbloxConfigurationCatalogue {
  typealias Spec = UBXConfigurationMessageSpec

  /// Every CFG message either family answers.
  static let all: [Entry] = [
    Entry(
      spec: Spec(
        .cfgPRT, layout: .instances(block: 20, maximumBlocks: 5), pollLengths: [0, 1],
        instances: 0...4, emptyPollInstance: UBXPortConfiguration.uart1, section: .ioPort),
      families: [.m8, .f9],
      defaults: [
        0: portDefault(0, mode: 0x84, baud: 0, in: 0x07),
        1: portDefault(1, mode: UBXPortConfiguration.mode8N1, baud: 9600, in: 0x07),
        2: portDefault(2, mode: UBXPortConfiguration.mode8N1, baud: 9600, in: 0x07),
        3: portDefault(3, mode: 0, baud: 0, in: 0x07),
        4: portDefault(4, mode: 0x3200, baud: 0, in: 0x07),
      ]),
    Entry(
      spec: Spec(.cfgMSG, layout: .lengths([3, 8]), pollLengths: [2], section: .messages),
      families: [.m8, .f9], defaults: [:]),
    Entry(
      spec: Spec(
        .cfgRATE, layout: .lengths([6]), section: .navigation,
        rules: [UBXFieldRule("timeRef", offset: 4, width: 2, allowed: [0...4])]),
      families: [.m8, .f9], defaults: [0: [0xE8, 0x03, 0x01, 0x00, 0x01, 0x00]]),
    Entry(
      spec: Spec(.cfgCFG, layout: .lengths([12, 13]), pollLengths: [], section: []),
      families: [.m8, .f9], defaults: [:]),
    Entry(
      spec: Spec(.cfgRST, layout: .lengths([4]), pollLengths: [], section: []),
      families: [.m8, .f9], defaults: [:]),
    Entry(
      spec: Spec(.cfgNAV5, layout: .lengths([36]), section: .navigation),
      families: [.m8, .f9],
      defaults: [
        0: [
          0xFF, 0x05, 0, 3, 0, 0, 0, 0, 0x10, 0x27, 0, 0, 5, 0, 0xFA, 0, 0xFA, 0, 0x64, 0,
          0x5E, 0x01, 0, 0x3C, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ]
      ]),
    Entry(
      spec: Spec(
        .cfgNAVX5, layout: .lengths([40]), section: .navigation,
        rules: [UBXFieldRule("version", offset: 0, width: 2, allowed: [0...2])]),
      families: [.m8],
      defaults: [
        0: [
          2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 32, 6, 0, 0, 0, 0, 0, 0x4B, 0x07,
          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ]
      ]),
    Entry(
      spec: Spec(
        .cfgGNSS, layout: .repeated(header: 4, block: 8, countOffset: 3, maximumBlocks: 16),
        section: .navigation, rules: [UBXFieldRule("msgVer", offset: 0, allowed: [0...0])]),
      families: [.m8, .f9],
      defaults: [
        0: [
          0, 32, 32, 7, 0, 8, 16, 0, 0x01, 0, 0x01, 0x01, 1, 1, 3, 0, 0x01, 0, 0x01, 0x01,
          2, 4, 8, 0, 0x00, 0, 0x01, 0x01, 3, 8, 16, 0, 0x00, 0, 0x01, 0x01,
          4, 0, 8, 0, 0x00, 0, 0x01, 0x03, 5, 0, 3, 0, 0x01, 0, 0x01, 0x05,
          6, 8, 14, 0, 0x01, 0, 0x01, 0x01,
        ]
      ]),
    Entry(
      spec: Spec(
        .cfgSBAS, layout: .lengths([8]), section: .navigation,
        rules: [UBXFieldRule("maxSBAS", offset: 2, allowed: [0...3])]),
      families: [.m8, .f9], defaults: [0: [0x01, 0x03, 3, 0, 0, 0, 0, 0]]),
    Entry(
      spec: Spec(
        .cfgNMEA, layout: .lengths([4, 12, 20]), section: .navigation,
        rules: [
          UBXFieldRule("nmeaVersion", offset: 1, allowed: [0x21...0x21, 0x23...0x23, 0x40...0x41])
        ], fixedBytes: [11: 1]),
      families: [.m8],
      defaults: [0: [0, 0x41, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]]),
    // u-blox 9 writes NMEA 4.11 (0x4B) from the factory (CFG-NMEA-PROTVER 42).
    Entry(
      spec: Spec(
        .cfgNMEA, layout: .lengths([4, 12, 20]), section: .navigation,
        rules: [
          UBXFieldRule(
            "nmeaVersion", offset: 1,
            allowed: [0x21...0x21, 0x23...0x23, 0x40...0x41, 0x4B...0x4B])
        ], fixedBytes: [11: 1]),
      families: [.f9],
      defaults: [0: [0, 0x4B, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]]),
    Entry(
      spec: Spec(
        .cfgTP5, layout: .instances(block: 32, maximumBlocks: 1), pollLengths: [0, 1],
        instances: 0...1, emptyPollInstance: 0, section: .navigation),
      families: [.m8, .f9],
      defaults: [0: timePulseDefault(0, flags: 0x77), 1: timePulseDefault(1, flags: 0x76)]),
    Entry(
      spec: Spec(
        .cfgINF, layout: .instances(block: 10, maximumBlocks: 2), pollLengths: [1],
        instances: 0...1, section: .informationMessages),
      families: [.m8, .f9],
      defaults: [
        0: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 1: [1, 0, 0, 0, 0x07, 0x07, 0, 0x07, 0x07, 0],
      ]),
    Entry(
      spec: Spec(.cfgANT, layout: .lengths([4]), section: .antenna),
      families: [.m8, .f9], defaults: [0: [0x1B, 0x00, 0xF0, 0xB9]]),
    Entry(
      spec: Spec(
        .cfgPMS, layout: .lengths([8]), section: .receiverManager,
        rules: [
          UBXFieldRule("version", offset: 0, allowed: [0...0]),
          UBXFieldRule("powerSetupValue", offset: 1, allowed: [0...4, 0xFF...0xFF]),
        ]),
      families: [.m8], defaults: [0: [0, 0, 0, 0, 0, 0, 0, 0]]),
    Entry(
      spec: Spec(
        .cfgPM2, layout: .lengths([44]), section: .receiverManager,
        rules: [UBXFieldRule("version", offset: 0, allowed: [1...1])]),
      families: [.m8],
      defaults: [
        0: [1, 0, 0, 0, 0x00, 0x90, 0x02, 0x00, 0xE8, 0x03, 0, 0, 0x10, 0x27, 0, 0]
          + [UInt8](repeating: 0, count: 28)
      ]),
    Entry(
      spec: Spec(
        .cfgRXM, layout: .lengths([2]), section: .receiverManager,
        rules: [UBXFieldRule("lpMode", offset: 1, allowed: [0...1, 4...4])]),
      families: [.m8], defaults: [0: [0x08, 0x00]]),
    Entry(
      spec: Spec(.cfgITFM, layout: .lengths([8]), section: .receiverManager),
      families: [.m8, .f9], defaults: [0: [0xF3, 0xAC, 0x62, 0x2D, 0x1E, 0x03, 0x00, 0x00]]),
    Entry(
      spec: Spec(
        .cfgODO, layout: .lengths([20]), section: .navigation,
        rules: [UBXFieldRule("odoCfg", offset: 5, allowed: [0...4])]),
      families: [.m8, .f9],
      defaults: [0: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 50, 0, 0, 153, 76, 0, 0]]),
    Entry(
      spec: Spec(.cfgDAT, layout: .lengths([44]), section: .navigation),
      families: [.m8, .f9], defaults: [0: UBXDatum.wgs84.payload]),
    Entry(
      spec: Spec(.cfgUSB, layout: .lengths([108]), section: .ioPort),
      families: [.m8, .f9], defaults: [0: usbDefault]),
    Entry(
      spec: Spec(
        .cfgLOGFILTER, layout: .lengths([12]), section: .logging,
        rules: [UBXFieldRule("version", offset: 0, allowed: [1...1])]),
      families: [.m8, .f9], defaults: [0: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]),
    Entry(
      spec: Spec(
        .cfgGEOFENCE, layout: .repeated(header: 8, block: 12, countOffset: 1, maximumBlocks: 4),
        section: .navigation, rules: [UBXFieldRule("confLvl", offset: 2, allowed: [0...5])]),
      families: [.m8, .f9], defaults: [0: [0, 0, 0, 0, 0, 0, 0, 0]]),
    Entry(
      spec: Spec(.cfgPWR, layout: .lengths([8]), section: .receiverManager),
      families: [.m8, .f9], defaults: [0: [1, 0, 0, 0, 0x20, 0x4E, 0x55, 0x52]]),
    Entry(
      spec: Spec(
        .cfgRINV, layout: .repeated(header: 1, block: 1, countOffset: nil, maximumBlocks: 30),
        section: .remoteInventory),
      families: [.m8, .f9], defaults: [0: [0]]),
    Entry(
      spec: Spec(
        .cfgDGNSS, layout: .lengths([4]), section: .navigation,
        rules: [UBXFieldRule("dgnssMode", offset: 0, allowed: [2...3])]),
      families: [.f9], defaults: [0: [3, 0, 0, 0]]),
    Entry(
      spec: Spec(.cfgTMODE3, layout: .lengths([40]), section: .navigation),
      families: [.f9], defaults: [0: [UInt8](repeating: 0, count: 40)]),
    Entry(
      spec: Spec(.cfgHNR, layout: .lengths([4]), section: .navigation),
      families: [], defaults: [0: [30, 0, 0, 0]]),
    Entry(
      spec: Spec(.cfgTMODE2, layout: .lengths([28]), section: .timing),
      families: [], defaults: [0: [UInt8](repeating: 0, count: 28)]),
  ]

  /// CFG-NAVX5 of u-blox 9: version 2, 40 bytes, as the HPG 1.13, 1.32 and 1.50 interface
  /// descriptions give it; week rollover 2208 (CFG-NAVSPG-WKNROLLOVER's default).
  static let navigationExpertF9 = Entry(
    spec: Spec(
      .cfgNAVX5, layout: .lengths([40]), section: .navigation,
      rules: [UBXFieldRule("version", offset: 0, width: 2, allowed: [2...2])]),
    families: [.f9],
    defaults: [
      0: [
        2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 32, 6, 0, 0, 0, 0, 0, 0xA0, 0x08,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      ]
    ])

  /// A CFG-PRT block: out protocols UBX and NMEA, flags 0.
  static func portDefault(_ port: UInt8, mode: UInt32, baud: Int, in inMask: UInt16) -> [UInt8] {
    UBXPortConfiguration(
      portID: port, mode: mode, baud: baud,
      inProtocols: UBXPortConfiguration.Protocols(rawValue: inMask), outProtocols: [.ubx, .nmea]
    ).frame.payload
  }

  /// A CFG-TP5 block: 1 Hz, 100 ms pulses once locked, 50 ns antenna cable delay.
  static func timePulseDefault(_ index: UInt8, flags: UInt32) -> [UInt8] {
    var writer = UBXPayloadWriter()
    writer.u1(index)
    writer.u1(1)
    writer.zeros(2)
    writer.i2(50)
    writer.i2(0)
    writer.u4(1_000_000)
    writer.u4(1_000_000)
    writer.u4(0)
    writer.u4(100_000)
    writer.i4(0)
    writer.u4(flags)
    return writer.bytes
  }

  /// CFG-USB: u-blox's vendor and product IDs and strings, bus powered at 100 mA.
  static var usbDefault: [UInt8] {
    var writer = UBXPayloadWriter()
    writer.u2(0x1546)
    writer.u2(0x01A8)
    writer.u2(0)
    writer.u2(1)
    writer.u2(100)
    writer.u2(0)
    writer.characters("u-blox AG - www.u-blox.com", width: 32)
    writer.characters("u-blox GNSS receiver", width: 32)
    writer.characters("", width: 32)
    return writer.bytes
  }
}
