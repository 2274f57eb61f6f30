import UBX

/// The CFG class: a setting is answered with ACK-ACK, or ACK-NAK where the chip refuses it
/// (a message this firmware does not have, a wrong length, a value out of range); a poll with
/// the value, then ACK-ACK. CFG-RST is never acknowledged.
///
/// The messages are rows of `UbloxConfigurationCatalogue`; most are stored and polled back as
/// sent. The ones the emulator runs on or that have rules of their own are typed: CFG-PRT,
/// CFG-MSG, CFG-RATE, CFG-NAV5 (its apply mask), CFG-GNSS, CFG-DAT, CFG-CFG and CFG-RST
/// (`+Storage`). On u-blox 9, the legacy messages are views of their keys (`+LegacyKeys`).
extension UbloxCommandHandler {
  /// Answers one CFG message. While CFG-RST has stopped the GNSS, the output stays silent:
  /// settings are taken but their output is sent only when the GNSS starts again.
  mutating func configure(_ frame: UBXFrame) -> [ReceiverEffect] {
    switch frame.messageType {
    case .cfgVALSET where firmware.hasConfigurationDatabase: return setValues(frame)
    case .cfgVALGET where firmware.hasConfigurationDatabase: return getValues(frame)
    default: break
    }
    guard let entry = configurationState.catalogue.entries[frame.messageType] else {
      return Self.refuse(frame)
    }
    let wasStopped = configurationState.gnssStopped
    do {
      let effects = try configure(frame, entry: entry)
      guard wasStopped, configurationState.gnssStopped else { return effects }
      return effects.filter {
        if case .setOutput = $0 { return false }
        return true
      }
    } catch {
      return refuse(frame, because: error)
    }
  }

  /// Answers a message of the catalogue.
  ///
  /// - Throws: `UBXConfigurationError` when the chip refuses it.
  mutating func configure(_ frame: UBXFrame, entry: UbloxConfigurationCatalogue.Entry)
    throws(UBXConfigurationError) -> [ReceiverEffect]
  {
    let payload = frame.payload
    switch frame.messageType {
    case .cfgMSG: return try configureMessageRate(frame)
    case .cfgCFG: return try manageStorage(frame)
    case .cfgRST: return try reset(frame)
    default: break
    }
    if entry.spec.pollLengths.contains(payload.count) { return try poll(frame, entry: entry) }
    switch frame.messageType {
    case .cfgPRT: return try configurePorts(frame, entry: entry)
    case .cfgRATE: return try configureRate(frame, entry: entry)
    case .cfgNAV5:
      let current = reported(.cfgNAV5) ?? entry.defaults[0] ?? []
      let merged = try UBXNavigationEngineSettings.merge(current, with: payload)
      try setLegacyKeys(.cfgNAV5, from: [(0, merged)])
      configurationState.current[.cfgNAV5, 0] = merged
    case .cfgGNSS:
      try configureSystems(frame)
    case .cfgDAT:
      let datum = try UBXDatum(setting: payload).payload
      try setLegacyKeys(.cfgDAT, from: [(0, datum)])
      configurationState.current[.cfgDAT, 0] = datum
    default:
      let updated = try entry.spec.values(of: payload).map { instance, value in
        let stored = configurationState.current[frame.messageType, UInt16(instance)] ?? []
        return (UInt16(instance), entry.spec.value(setting: value, over: stored))
      }
      try setLegacyKeys(frame.messageType, from: updated)
      for (instance, value) in updated {
        configurationState.current[frame.messageType, instance] = value
      }
      if frame.messageType == .cfgNMEA, firmware.hasConfigurationDatabase {
        translateToNMEAKeys(payload)
      }
    }
    return [Self.acknowledge(frame)]
  }

  /// A poll: the value of the instance it names (or of the default instance), then ACK-ACK.
  func poll(_ frame: UBXFrame, entry: UbloxConfigurationCatalogue.Entry)
    throws(UBXConfigurationError) -> [ReceiverEffect]
  {
    let instance = frame.payload.first ?? entry.spec.emptyPollInstance ?? 0
    guard entry.spec.instances.contains(instance) || !entry.spec.hasInstances,
      let value = reported(frame.messageType, instance: UInt16(instance))
    else { throw .outOfRange(frame.messageType, field: "instance", value: UInt64(instance)) }
    return [.reply(UBXFrame(frame.messageType, payload: value).bytes), Self.acknowledge(frame)]
  }

  /// CFG-PRT: one 20-byte block per port, each stored; UART1's block switches the output
  /// protocols and the baud, which must be one a UART can run at.
  mutating func configurePorts(_ frame: UBXFrame, entry: UbloxConfigurationCatalogue.Entry)
    throws(UBXConfigurationError) -> [ReceiverEffect]
  {
    let blocks = try entry.spec.values(of: frame.payload)
    var uart1: (port: UBXPortConfiguration, pacing: BytePacing)?
    for (instance, value) in blocks where instance == UBXPortConfiguration.uart1 {
      let port = UBXPortConfiguration(payload: value)
      guard let port, let pacing = try? BytePacing(baud: port.baud), pacing.baud != 0 else {
        throw .outOfRange(.cfgPRT, field: "baudRate", value: UInt64(port?.baud ?? 0))
      }
      uart1 = (port, pacing)
    }
    let instances = blocks.map { (UInt16($0.0), $0.1) }
    try setLegacyKeys(.cfgPRT, from: instances)
    for (instance, value) in instances { configurationState.current[.cfgPRT, instance] = value }
    guard let uart1 else { return [Self.acknowledge(frame)] }
    var changed = output
    changed.ubxProtocolEnabled = uart1.port.outProtocols.contains(.ubx)
    changed.nmeaProtocolEnabled = uart1.port.outProtocols.contains(.nmea)
    return [Self.acknowledge(frame)] + apply(output: changed) + apply(baud: uart1.pacing)
  }

  /// CFG-MSG: a 2-byte poll reports the rate on each port; a 3-byte setting sets the rate on
  /// the port it arrives on (UART1), an 8-byte one on each port. A message the firmware does
  /// not output is refused.
  mutating func configureMessageRate(_ frame: UBXFrame) throws(UBXConfigurationError)
    -> [ReceiverEffect]
  {
    guard let command = UBXMessageRateCommand(payload: frame.payload) else {
      throw .wrongLength(.cfgMSG, count: frame.payload.count)
    }
    let type = command.messageType
    guard UbloxOutputMessages.contains(type), !firmware.missingMessages.contains(type) else {
      throw .outOfRange(.cfgMSG, field: "msgClass/msgID", value: UInt64(type.id))
    }
    let instance = Self.messageRateInstance(type)
    let uart1 = Int(UBXPortConfiguration.uart1)
    switch command {
    case .poll:
      var rates = reported(.cfgMSG, instance: instance) ?? [UInt8](repeating: 0, count: 6)
      for (port, key) in messageOutputKeys(type) {
        rates[port] = UInt8(clamping: Self.ramValue(key, in: configurationDatabase))
      }
      return [
        .reply(UBXFrame(.cfgMSG, payload: [type.messageClass, type.id] + rates).bytes),
        Self.acknowledge(frame),
      ]
    case .setCurrentPort(_, let newRate):
      return [Self.acknowledge(frame)] + apply(output: output(setting: type, to: newRate))
    case .setPorts(_, let rates):
      var stored = rates.map { UInt8(clamping: $0) }
      stored[uart1] = 0
      for (port, key) in messageOutputKeys(type) {
        configurationDatabase.setRAM(UBXConfigurationItem(key: key, value: UInt64(stored[port])))
        stored[port] = 0
      }
      configurationState.current[.cfgMSG, instance] =
        stored.allSatisfy { $0 == 0 } ? nil : stored
      return [Self.acknowledge(frame)] + apply(output: output(setting: type, to: rates[uart1]))
    }
  }

  /// On u-blox 9, the `CFG-MSGOUT` keys of `type`'s rates on the ports other than UART1 (whose
  /// rate the output models), by CFG-MSG's port number (I2C 0, UART2 2, USB 3, SPI 4): a legacy
  /// CFG-MSG sets them and its poll reads them, as a VALSET and VALGET of them do. In the key
  /// table a message's five keys follow each other in that order, the UART1 key second. Empty
  /// before u-blox 9, and for a message the output does not model (its rates stay CFG-MSG's).
  func messageOutputKeys(_ type: UBXMessageType) -> [(port: Int, key: UBXConfigurationKey)] {
    guard firmware.hasConfigurationDatabase,
      let uart1 = UBXConfigurationKey.uart1MessageRates[type]
    else { return [] }
    let suffixes = [0: "_I2C", 2: "_UART2", 3: "_USB", 4: "_SPI"]
    return suffixes.keys.sorted().compactMap { port in
      let key = UBXConfigurationKey(uart1.rawValue - 1 + UInt32(port))
      guard let suffix = suffixes[port],
        Self.catalogue.definition(of: key)?.name.hasSuffix(suffix) == true
      else { return nil }
      return (port, key)
    }
  }

  /// CFG-RATE: a setting within what `CadencePlan` offers (0.1–20 Hz) and a time reference
  /// of protocol 18 (UTC, GPS, GLONASS, BeiDou, Galileo) changes the cadence; on u-blox 9 also
  /// within the limits of the `CFG-RATE-*` keys it stands for.
  mutating func configureRate(_ frame: UBXFrame, entry: UbloxConfigurationCatalogue.Entry)
    throws(UBXConfigurationError) -> [ReceiverEffect]
  {
    _ = try entry.spec.values(of: frame.payload)
    guard let requested = UBXNavigationRate(payload: frame.payload),
      let plan = Self.plan(requested),
      !firmware.hasConfigurationDatabase || Self.keysAccept(requested)
    else {
      throw .outOfRange(.cfgRATE, field: "measRate", value: UInt64(frame.payload.first ?? 0))
    }
    try setLegacyKeys(.cfgRATE, from: [(0, frame.payload)])
    rate = requested
    return [Self.acknowledge(frame), .setRate(plan)]
  }

  /// True when the `CFG-RATE-MEAS` and `CFG-RATE-NAV` values of `rate` are ones u-blox 9 takes.
  static func keysAccept(_ rate: UBXNavigationRate) -> Bool {
    let items: [(UBXConfigurationKey, Int)] = [
      (.rateMeasurement, rate.measurementPeriodMilliseconds),
      (.rateNavigation, rate.measurementsPerEpoch),
    ]
    return items.allSatisfy {
      catalogue.accepts(UBXConfigurationItem(key: $0.0, value: UInt64(clamping: $0.1)))
    }
  }

  /// CFG-GNSS: the blocks it lists replace the current ones, under the chip's rules; u-blox 9
  /// checks them against the view of its `CFG-SIGNAL-*` keys (`+LegacyGNSS`) and translates
  /// them into those keys (`+TrackedSystems`), refusing a block whose `sigCfgMask` is a
  /// combination it cannot track (`+SignalCombinations`).
  mutating func configureSystems(_ frame: UBXFrame) throws(UBXConfigurationError) {
    let spec = configurationState.catalogue.entries[.cfgGNSS]?.spec
    _ = try spec?.values(of: frame.payload)
    guard let setting = UBXGNSSConfiguration(payload: frame.payload),
      let current = reportedSystems(configurationState.current[.cfgGNSS, 0]).flatMap(
        UBXGNSSConfiguration.init(payload:))
    else { throw .wrongLength(.cfgGNSS, count: frame.payload.count) }
    let merged = try current.applying(
      setting, majorSystemLimit: configurationState.catalogue.majorSystemLimit)
    if firmware.hasConfigurationDatabase {
      var database = configurationDatabase
      for item in Self.signalItems(of: setting) { database.setRAM(item) }
      guard Self.allowsSignals({ Self.ramValue($0, in: database) }) else {
        throw .inconsistent(.cfgGNSS, reason: "a signal combination the chip cannot track")
      }
      configurationDatabase = database
    }
    configurationState.current[.cfgGNSS, 0] = merged.payload
  }
}
