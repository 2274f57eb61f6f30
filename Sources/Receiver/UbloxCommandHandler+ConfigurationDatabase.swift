import UBX

/// CFG-VALSET and CFG-VALGET of u-blox 9: the keys of UART1's output protocols and message
/// rates, its baud and the measurement rate.
extension UbloxCommandHandler {
  /// CFG-VALSET: refused as a whole when a key is unknown or a value impossible; applied now
  /// when the RAM layer is among the layers, otherwise only acknowledged (BBR and flash take
  /// effect at the next power-up).
  mutating func setValues(_ frame: UBXFrame) -> [ReceiverEffect] {
    guard let valueSet = UBXValueSet(payload: frame.payload) else { return Self.refuse(frame) }
    var changedOutput = output
    var changedRate = rate
    var changedBaud = baud
    for item in valueSet.items {
      let value = Int(clamping: item.value)
      switch item.key {
      case .rateMeasurement: changedRate.measurementPeriodMilliseconds = value
      case .rateNavigation: changedRate.measurementsPerEpoch = value
      case .uart1Baud: changedBaud = value
      case .uart1OutputUBX: changedOutput.ubxProtocolEnabled = value != 0
      case .uart1OutputNMEA: changedOutput.nmeaProtocolEnabled = value != 0
      default:
        guard let type = Self.messageType(of: item.key) else { return Self.refuse(frame) }
        changedOutput = Self.output(changedOutput, setting: type, to: value)
      }
    }
    guard let plan = Self.plan(changedRate), let pacing = try? BytePacing(baud: changedBaud),
      pacing.baud != 0
    else { return Self.refuse(frame) }
    guard valueSet.layers & 0x01 != 0 else { return [Self.acknowledge(frame)] }
    var effects = [Self.acknowledge(frame)] + apply(output: changedOutput)
    if changedRate != rate {
      rate = changedRate
      effects.append(.setRate(plan))
    }
    return effects + apply(baud: pacing)
  }

  /// CFG-VALGET: the current values of the keys asked for; refused when one is unknown.
  func getValues(_ frame: UBXFrame) -> [ReceiverEffect] {
    guard let request = UBXValueGet(payload: frame.payload) else { return Self.refuse(frame) }
    var items: [UBXConfigurationItem] = []
    for key in request.keys {
      guard let value = value(of: key) else { return Self.refuse(frame) }
      items.append(UBXConfigurationItem(key: key, value: UInt64(clamping: value)))
    }
    return [.reply(request.answer(items).bytes), Self.acknowledge(frame)]
  }

  /// The current value of a key, or nil for a key this chip does not know.
  func value(of key: UBXConfigurationKey) -> Int? {
    switch key {
    case .rateMeasurement: return rate.measurementPeriodMilliseconds
    case .rateNavigation: return rate.measurementsPerEpoch
    case .uart1Baud: return baud
    case .uart1OutputUBX: return output.ubxProtocolEnabled ? 1 : 0
    case .uart1OutputNMEA: return output.nmeaProtocolEnabled ? 1 : 0
    default: return Self.messageType(of: key).map(rate(of:))
    }
  }

  /// The message whose UART1 rate a `CFG-MSGOUT` key sets.
  static func messageType(of key: UBXConfigurationKey) -> UBXMessageType? {
    UBXConfigurationKey.uart1MessageRates.first { $0.value == key }?.key
  }
}
