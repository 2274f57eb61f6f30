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

  /// `configuration` with UART1's baud, output protocols and message rates and the
  /// navigation rate written in; CFG-MSG entries whose rates are all 0 are dropped.
  static func overlay(
    _ configuration: UbloxConfiguration, baud: Int, rate: UBXNavigationRate,
    output: OutputSelection
  ) -> UbloxConfiguration {
    var result = configuration
    let uart1 = UInt16(UBXPortConfiguration.uart1)
    if var port = result[.cfgPRT, uart1].flatMap(UBXPortConfiguration.init(payload:)) {
      port.baud = baud
      port.outProtocols.subtract([.ubx, .nmea])
      if output.ubxProtocolEnabled { port.outProtocols.insert(.ubx) }
      if output.nmeaProtocolEnabled { port.outProtocols.insert(.nmea) }
      result[.cfgPRT, uart1] = port.frame.payload
    }
    result[.cfgRATE, 0] = rate.frame.payload
    let outputTypes =
      output.nmea.keys.compactMap(UBXMessageType.init(nmeaSentence:)) + output.ubx.keys
    let instances = Set(result.instances(of: .cfgMSG) + outputTypes.map(messageRateInstance))
    for instance in instances {
      let type = messageType(rateInstance: instance)
      var rates = result[.cfgMSG, instance] ?? [UInt8](repeating: 0, count: 6)
      rates[Int(uart1)] = UInt8(clamping: uart1Rate(of: type, in: output))
      result[.cfgMSG, instance] = rates.allSatisfy { $0 == 0 } ? nil : rates
    }
    return result
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
