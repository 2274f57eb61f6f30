import UBX

/// CFG-CFG (the non-volatile layers) and CFG-RST (restarts).
extension UbloxCommandHandler {
  /// CFG-CFG: clears the sections of `clearMask` to the power-up values in the layers of
  /// `deviceMask`, saves those of `saveMask` from the current configuration, then loads those of
  /// `loadMask` (from battery-backed RAM when named, else flash), running on what changes.
  mutating func manageStorage(_ frame: UBXFrame) throws(UBXConfigurationError)
    -> [ReceiverEffect]
  {
    let command = try UBXStorageCommand(payload: frame.payload)
    let loaded = configurationState.store(command, reported: reportedConfiguration)
    if !command.clear.isEmpty || !command.save.isEmpty, !command.devices.isDisjoint(with: .all) {
      nonVolatileWrites += 1
    }
    var effects = [Self.acknowledge(frame)] + (loaded.map { adopt($0) } ?? [])
    if firmware.hasConfigurationDatabase {
      // u-blox 9 keeps its configuration as keys: the same command acts on their layers.
      effects += applyLegacyConfigurationCommand(
        clearMask: command.clear.rawValue, saveMask: command.save.rawValue,
        loadMask: command.load.rawValue,
        deviceMask: frame.payload.count == 13 ? command.devices.rawValue : nil)
    }
    return effects
  }

  /// CFG-RST, never acknowledged (the receiver description: "do not expect this message to be
  /// acknowledged"; gpsd's ubxtool waits for no ACK after it). A hardware or controlled
  /// software reset powers up and loads the configuration of the battery-backed RAM or flash;
  /// the immediate hardware reset also cuts what the chip is sending, replies it has not sent
  /// included (those of commands in the same write as the reset too). A GNSS-only reset
  /// restarts navigation and keeps the configuration; a GNSS stop silences the output until a
  /// GNSS start, which restarts navigation. A wrong length is refused; an undefined reset mode
  /// is ignored.
  mutating func reset(_ frame: UBXFrame) throws(UBXConfigurationError) -> [ReceiverEffect] {
    let command = try UBXResetCommand(payload: frame.payload)
    guard let mode = command.mode else { return [] }
    let start = Self.start(clearing: command.clearedData)
    let wasStopped = configurationState.gnssStopped
    switch mode {
    case .hardwareImmediately, .hardwareAfterShutdown, .software:
      configurationState.gnssStopped = false
      let restart = ReceiverRestart(
        start: start, powersUp: true, cutsOutput: mode == .hardwareImmediately)
      var effects = [ReceiverEffect.restart(restart)]
      effects += adopt(configurationState.powerUpConfiguration)
      if firmware.hasConfigurationDatabase { effects += loadStoredConfiguration() }
      if wasStopped, !effects.contains(where: Self.isOutputChange) {
        effects.append(.setOutput(output))
      }
      return effects
    case .gnssOnly:
      return [.restart(ReceiverRestart(start: start, powersUp: false))]
    case .gnssStop:
      guard !wasStopped else { return [] }
      configurationState.gnssStopped = true
      var silent = output
      silent.nmeaProtocolEnabled = false
      silent.ubxProtocolEnabled = false
      return [.setOutput(silent)]
    case .gnssStart:
      guard wasStopped else { return [] }
      configurationState.gnssStopped = false
      return [.restart(ReceiverRestart(start: start, powersUp: false)), .setOutput(output)]
    }
  }

  /// The kind of start a `navBbrMask` makes: cold when it clears the almanac (0xFFFF, or any
  /// mask with the alm bit), warm when it clears the ephemerides (0x0001) or anything else but
  /// the almanac, hot when it clears nothing (0x0000).
  static func start(clearing mask: UInt16) -> ReceiverRestart.Start {
    if mask & 0x0002 != 0 { return .cold }
    return mask == 0 ? .hot : .warm
  }

  /// True for a `.setOutput` effect.
  static func isOutputChange(_ effect: ReceiverEffect) -> Bool {
    if case .setOutput = effect { return true }
    return false
  }
}
