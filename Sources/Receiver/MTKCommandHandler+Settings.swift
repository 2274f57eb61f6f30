/// The PMTK set commands whose values the chip keeps, and the queries that report them:
/// PMTK400 → PMTK500 (fix control), 401 → 501 (DGPS mode), 413 → 513 (SBAS), 447 → 527 (static
/// navigation threshold), 869,0 → 869,2 (EASY). A value out of range is answered with flag 2
/// and changes nothing.
extension MTKCommandHandler {
  /// The effects of a setting or query command, or nil when `command` is neither.
  mutating func handleSetting(_ command: PMTKCommand) -> [ReceiverEffect]? {
    let first = command.fields.first.flatMap { Int($0) }
    switch command.number {
    case 301: return store(command, first, in: 0...2) { $0.dgpsMode = $1 }
    case 313: return store(command, first, in: 0...1) { $0.sbasEnabled = $1 == 1 }
    case 319: return store(command, first, in: 0...1) { $0.sbasIntegrity = $1 == 1 }
    case 886: return store(command, first, in: 0...3) { $0.navigationMode = $1 }
    case 225: return setPeriodicMode(command, first)
    case 386, 397: return setStaticThreshold(command)
    case 869: return easy(command)
    case 400:
      let interval = String(settings.fixIntervalMilliseconds)
      return [Self.reply(PMTKCommand(number: 500, fields: [interval, "0", "0", "0.0", "0.0"]))]
    case 401: return [Self.reply(PMTKCommand(number: 501, fields: [String(settings.dgpsMode)]))]
    case 413:
      return [Self.reply(PMTKCommand(number: 513, fields: [settings.sbasEnabled ? "1" : "0"]))]
    case 447:
      let threshold = MTKSettings.twoDecimals(settings.staticThresholdMetersPerSecond)
      return [Self.reply(PMTKCommand(number: 527, fields: [threshold]))]
    default: return nil
    }
  }

  /// Stores an integer setting within `range`; flag 3, or 2 for a missing or bad value.
  mutating func store(
    _ command: PMTKCommand, _ value: Int?, in range: ClosedRange<Int>,
    _ apply: (inout MTKSettings, Int) -> Void
  ) -> [ReceiverEffect] {
    guard let value, range.contains(value) else { return [Self.acknowledge(command, .failed)] }
    apply(&settings, value)
    return [Self.acknowledge(command, .done)]
  }

  /// `PMTK225,mode[,run,sleep,…]`: the periodic power modes of the manuals.
  mutating func setPeriodicMode(_ command: PMTKCommand, _ mode: Int?) -> [ReceiverEffect] {
    guard let mode, [0, 1, 2, 4, 8, 9].contains(mode) else {
      return [Self.acknowledge(command, .failed)]
    }
    settings.periodicMode = mode
    return [Self.acknowledge(command, .done)]
  }

  /// `PMTK386,speed` (`PMTK397` on older chips): one of the thresholds the manual lists.
  mutating func setStaticThreshold(_ command: PMTKCommand) -> [ReceiverEffect] {
    guard let speed = command.fields.first.flatMap({ Double($0) }),
      let threshold = MTKSettings.staticThresholds.first(where: { abs($0 - speed) < 0.001 })
    else { return [Self.acknowledge(command, .failed)] }
    settings.staticThresholdMetersPerSecond = threshold
    return [Self.acknowledge(command, .done)]
  }

  /// `PMTK869,0` queries EASY (answered `PMTK869,2,enabled,days`), `PMTK869,1,0|1` sets it.
  mutating func easy(_ command: PMTKCommand) -> [ReceiverEffect] {
    switch command.fields {
    case ["0"]:
      let days = settings.easyEnabled ? "3" : "0"
      return [
        Self.reply(PMTKCommand(number: 869, fields: ["2", settings.easyEnabled ? "1" : "0", days]))
      ]
    case ["1", "0"], ["1", "1"]:
      settings.easyEnabled = command.fields[1] == "1"
      return [Self.acknowledge(command, .done)]
    default:
      return [Self.acknowledge(command, .failed)]
    }
  }
}
