/// The restarts of a MediaTek chip: `$PMTK101` hot, `$PMTK102` warm, `$PMTK103` cold and
/// `$PMTK104` full cold start.
///
/// The packet manuals (GlobalTop's "PMTK command packet", Quectel's L80 protocol
/// specification) list them among the commands without `PMTK001`: the chip reboots, and when
/// it is ready sends `$PMTK011,MTKGPS` and `$PMTK010,001` (its power-up sentences). A hot,
/// warm or cold start keeps the settings; a full cold start also clears the system and user
/// configuration, back to the factory's output set, 1 Hz fix interval and baud.
extension MTKCommandHandler {
  /// The start each restart command orders.
  static let restartStarts: [Int: ReceiverRestart.Start] = [
    101: .hot, 102: .warm, 103: .cold, 104: .cold,
  ]

  /// The effects of a restart command; fields after the number are ignored, as the chip does.
  mutating func restart(_ command: PMTKCommand) -> [ReceiverEffect] {
    guard let start = Self.restartStarts[command.number] else {
      return [Self.acknowledge(command, .unsupported)]
    }
    let restart = ReceiverEffect.restart(ReceiverRestart(start: start, powersUp: true))
    guard command.number == 104 else { return [restart] }
    output = profile.defaultOutput(baud: profile.defaultBaud)
    settings = MTKSettings()
    var factory: [ReceiverEffect] = [.setOutput(output), .setRate(.oneHertz)]
    if let pacing = try? BytePacing(baud: profile.defaultBaud) { factory.append(.setBaud(pacing)) }
    return factory + [restart]
  }
}
