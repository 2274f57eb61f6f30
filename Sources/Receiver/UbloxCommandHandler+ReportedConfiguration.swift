import UBX

/// The configuration as the chip reports and saves it, and taking one back (CFG-CFG load,
/// power-up): UART1's baud, output protocols and message rates and the navigation rate are
/// the handler's own properties, which the emulator runs on; every other value is stored.
extension UbloxCommandHandler {
  /// The CFG-MSG instance of a message: `class << 8 | id`.
  static func messageRateInstance(_ type: UBXMessageType) -> UInt16 {
    UInt16(type.messageClass) << 8 | UInt16(type.id)
  }

  /// The message a CFG-MSG instance stands for.
  static func messageType(rateInstance instance: UInt16) -> UBXMessageType {
    UBXMessageType(
      messageClass: UInt8(truncatingIfNeeded: instance >> 8),
      id: UInt8(truncatingIfNeeded: instance))
  }

  /// The current configuration as a poll reports it and CFG-CFG saves it.
  /// On u-blox 9 CFG-GNSS is the view of the signal keys (`+LegacyGNSS`), the other legacy
  /// messages of theirs (`+LegacyKeys`).
  var reportedConfiguration: UbloxConfiguration {
    var result = Self.overlay(configurationState.current, baud: baud, rate: rate, output: output)
    result[.cfgGNSS, 0] = reportedSystems(result[.cfgGNSS, 0])
    for (type, instances) in Self.legacyKeyInstances {
      for instance in instances {
        result[type, instance] = legacyView(type, instance: instance, of: result[type, instance])
      }
    }
    return result
  }

  /// One instance of `reportedConfiguration`, worked out alone: a command reads one or two,
  /// and the whole costs every legacy view of the keys on u-blox 9.
  func reported(_ type: UBXMessageType, instance: UInt16 = 0) -> [UInt8]? {
    let current = configurationState.current[type, instance]
    let value: [UInt8]?
    switch (type, instance) {
    case (.cfgRATE, 0): value = rate.frame.payload
    case (.cfgMSG, _): value = Self.overlaid(rates: current, instance: instance, output: output)
    case (.cfgPRT, UInt16(UBXPortConfiguration.uart1)):
      value = Self.overlaid(uart1: current, baud: baud, output: output)
    case (.cfgGNSS, 0): value = reportedSystems(current)
    default: value = current
    }
    guard Self.legacyKeyInstanceSet.contains(Self.instanceKey(type, instance)) else { return value }
    return legacyView(type, instance: instance, of: value)
  }

  /// `legacyKeyInstances` as a set of `instanceKey`s.
  private static let legacyKeyInstanceSet = Set(
    legacyKeyInstances.flatMap { entry in entry.instances.map { instanceKey(entry.type, $0) } })

  /// A message type and instance as one number, for `legacyKeyInstanceSet`.
  private static func instanceKey(_ type: UBXMessageType, _ instance: UInt16) -> UInt32 {
    UInt32(messageRateInstance(type)) << 16 | UInt32(instance)
  }

  /// `configuration` with UART1's baud, output protocols and message rates and the
  /// navigation rate written in; CFG-MSG entries whose rates are all 0 are dropped.
  static func overlay(
    _ configuration: UbloxConfiguration, baud: Int, rate: UBXNavigationRate,
    output: OutputSelection
  ) -> UbloxConfiguration {
    var result = configuration
    let uart1 = UInt16(UBXPortConfiguration.uart1)
    result[.cfgPRT, uart1] = overlaid(uart1: result[.cfgPRT, uart1], baud: baud, output: output)
    result[.cfgRATE, 0] = rate.frame.payload
    let outputTypes =
      output.nmea.keys.compactMap(UBXMessageType.init(nmeaSentence:)) + output.ubx.keys
    let instances = Set(result.instances(of: .cfgMSG) + outputTypes.map(messageRateInstance))
    for instance in instances {
      result[.cfgMSG, instance] = overlaid(
        rates: result[.cfgMSG, instance], instance: instance, output: output)
    }
    return result
  }

  /// A CFG-PRT payload of UART1 with the baud and output protocols the emulator runs on.
  private static func overlaid(uart1 payload: [UInt8]?, baud: Int, output: OutputSelection)
    -> [UInt8]?
  {
    guard var port = payload.flatMap(UBXPortConfiguration.init(payload:)) else { return payload }
    port.baud = baud
    port.outProtocols.subtract([.ubx, .nmea])
    if output.ubxProtocolEnabled { port.outProtocols.insert(.ubx) }
    if output.nmeaProtocolEnabled { port.outProtocols.insert(.nmea) }
    return port.frame.payload
  }

  /// A CFG-MSG instance's rates per port with UART1's from the output the emulator runs on;
  /// nil when every rate is 0.
  private static func overlaid(rates: [UInt8]?, instance: UInt16, output: OutputSelection)
    -> [UInt8]?
  {
    let uart1 = UBXPortConfiguration.uart1
    var rates = rates ?? [UInt8](repeating: 0, count: 6)
    let type = messageType(rateInstance: instance)
    rates[Int(uart1)] = UInt8(clamping: uart1Rate(of: type, in: output))
    return rates.allSatisfy { $0 == 0 } ? nil : rates
  }

  /// The UART1 rate of a message in an output selection.
  static func uart1Rate(of type: UBXMessageType, in output: OutputSelection) -> Int {
    if let sentence = type.nmeaSentence { return output.nmea[sentence] ?? 0 }
    return output.ubx[type] ?? 0
  }

  /// Makes `configuration` current and runs on what it says: the effects of the output, rate
  /// and baud that change, in that order.
  mutating func adopt(_ configuration: UbloxConfiguration) -> [ReceiverEffect] {
    configurationState.current = configuration
    let uart1 = UInt16(UBXPortConfiguration.uart1)
    let port = configuration[.cfgPRT, uart1].flatMap(UBXPortConfiguration.init(payload:))
    var changed = output
    if let port {
      changed.ubxProtocolEnabled = port.outProtocols.contains(.ubx)
      changed.nmeaProtocolEnabled = port.outProtocols.contains(.nmea)
    }
    let outputTypes =
      output.nmea.keys.compactMap(UBXMessageType.init(nmeaSentence:)) + output.ubx.keys
    let instances = Set(
      configuration.instances(of: .cfgMSG) + outputTypes.map(Self.messageRateInstance))
    for instance in instances {
      let type = Self.messageType(rateInstance: instance)
      let newRate = Int(configuration[.cfgMSG, instance]?[Int(uart1)] ?? 0)
      if newRate != Self.uart1Rate(of: type, in: changed) {
        changed = Self.output(changed, setting: type, to: newRate)
      }
    }
    var effects = apply(output: changed)
    if let newRate = configuration[.cfgRATE, 0].flatMap(UBXNavigationRate.init(payload:)),
      newRate != rate, let plan = Self.plan(newRate)
    {
      rate = newRate
      effects.append(.setRate(plan))
    }
    if let port, let pacing = try? BytePacing(baud: port.baud), pacing.baud != 0 {
      effects += apply(baud: pacing)
    }
    return effects
  }
}
