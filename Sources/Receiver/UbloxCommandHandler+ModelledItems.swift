import UBX

extension UbloxCommandHandler {
  /// The configuration items the emulator models, as values of its state: UART1's baud and
  /// output protocols, the UART1 rates of the messages the encoder sends (`CFG-MSGOUT-…_UART1`),
  /// and the measurement and navigation rate.
  struct ModelledItems: Hashable, Sendable {
    var output: OutputSelection
    var baud: Int
    var rate: UBXNavigationRate

    /// The item's value in this state, or nil for an item not modelled.
    func value(of key: UBXConfigurationKey) -> UInt64? {
      let number: Int
      switch key {
      case .rateMeasurement: number = rate.measurementPeriodMilliseconds
      case .rateNavigation: number = rate.measurementsPerEpoch
      case .uart1Baud: number = baud
      case .uart1OutputUBX: number = output.ubxProtocolEnabled ? 1 : 0
      case .uart1OutputNMEA: number = output.nmeaProtocolEnabled ? 1 : 0
      default:
        guard let type = UbloxCommandHandler.messageType(of: key) else { return nil }
        if let sentence = type.nmeaSentence {
          number = output.nmea[sentence] ?? 0
        } else {
          number = output.ubx[type] ?? 0
        }
      }
      return UInt64(clamping: number)
    }

    /// UART1's pacing at `baud`, or nil for a baud a UART cannot run at.
    var pacing: BytePacing? {
      guard let pacing = try? BytePacing(baud: baud), pacing.baud != 0 else { return nil }
      return pacing
    }

    /// True when the emulator can run this state: a rate `CadencePlan` offers and a baud a
    /// UART runs at.
    var isRunnable: Bool { UbloxCommandHandler.plan(rate) != nil && pacing != nil }

    /// Sets a modelled item; false, changing nothing, for an item not modelled.
    mutating func set(_ item: UBXConfigurationItem) -> Bool {
      let number = Int(clamping: item.value)
      switch item.key {
      case .rateMeasurement: rate.measurementPeriodMilliseconds = number
      case .rateNavigation: rate.measurementsPerEpoch = number
      case .uart1Baud: baud = number
      case .uart1OutputUBX: output.ubxProtocolEnabled = number != 0
      case .uart1OutputNMEA: output.nmeaProtocolEnabled = number != 0
      default:
        guard let type = UbloxCommandHandler.messageType(of: item.key) else { return false }
        output = UbloxCommandHandler.output(output, setting: type, to: number)
      }
      return true
    }
  }

  /// The message whose UART1 rate a `CFG-MSGOUT` key sets.
  static func messageType(of key: UBXConfigurationKey) -> UBXMessageType? {
    uart1RateMessages[key]
  }

  /// `UBXConfigurationKey.uart1MessageRates` the other way round.
  private static let uart1RateMessages = Dictionary(
    uniqueKeysWithValues: UBXConfigurationKey.uart1MessageRates.map { ($0.value, $0.key) })
}

extension UbloxConfigurationDatabase {
  /// The modelled items at power-up, before any stored value: their default layer.
  var powerUpItems: UbloxCommandHandler.ModelledItems {
    UbloxCommandHandler.ModelledItems(output: powerUpOutput, baud: powerUpBaud, rate: powerUpRate)
  }
}
