import Simulation

/// A MediaTek chip (MT3301/MT3329/MT3339) answering the PMTK commands a client writes.
///
/// Every command with a valid checksum is answered with `$PMTK001,<command>,<flag>`: 3 done,
/// 2 valid but out of range, 1 unsupported; except the restarts (PMTK101–104) and the baud
/// (PMTK251), which the packet manuals list as unacknowledged: a restarted chip sends its
/// start-up messages instead. `PMTK605` is answered with `$PMTK705` (firmware
/// release) and `PMTK414` with `$PMTK514` (sentence mix). Lines that are no PMTK command, or
/// whose checksum is wrong, get no answer. A command that turns SBAS on or off (`PMTK313`, a
/// full cold start) retracks the sky: the SBAS satellites in view come into GSV or leave it.
public struct MTKCommandHandler: ReceiverCommandHandler {
  /// The PMTK705 fields of a real Fastrax IT500 (MT3329), from gpsd's `mtk-3329.log`.
  public static let firmwareRelease = ["AXN_1.30", "0145", "Fastrax IT500", ""]
  /// The acknowledgement flags of `PMTK001`.
  public enum Acknowledgement: Int, Sendable {
    case unsupported = 1
    case failed = 2
    case done = 3
  }
  /// Commands answered with a plain "done" and otherwise ignored: test, standby, PPS
  /// configuration, datum, power-save, PPS query (the settings the chip keeps and reports are
  /// in `MTKCommandHandler+Settings.swift`).
  static let acknowledgedCommands: Set<Int> = [0, 161, 285, 286, 320, 330, 424]

  /// The chip.
  public let profile: ReceiverProfile
  /// What it sends, as configured so far.
  public internal(set) var output: OutputSelection
  /// The settings its set commands changed, as its queries report them.
  public internal(set) var settings = MTKSettings()
  /// The systems other than SBAS it tracks.
  let majorSystems: Set<Constellation>

  /// A chip in its power-up state, tracking `constellations` (its profile's when nil): with
  /// SBAS among them, as a chip whose flash holds `PMTK313,1`.
  public init(
    profile: ReceiverProfile, baud: Int? = nil, constellations: Set<Constellation>? = nil
  ) {
    self.profile = profile
    output = profile.defaultOutput(baud: baud ?? profile.defaultBaud)
    let systems = constellations ?? profile.defaultConstellations
    majorSystems = systems.filter { !$0.isAugmentation }
    settings.sbasEnabled = systems.contains(.sbas)
  }

  /// The systems the chip tracks: its others, and SBAS while `PMTK313` has it on.
  var trackedSystems: Set<Constellation> {
    settings.sbasEnabled ? majorSystems.union([.sbas]) : majorSystems
  }

  public mutating func handle(_ message: ClientMessage) -> [ReceiverEffect] {
    let tracked = trackedSystems
    var effects = respond(to: message)
    if trackedSystems != tracked {
      // Before a restart, which comes last (the factory settings of a full cold start first).
      let retrack = ReceiverEffect.setTracking(trackedSystems, sbasPRNs: Set(SBASSatellite.prns))
      if case .restart = effects.last {
        effects.insert(retrack, at: effects.count - 1)
      } else {
        effects.append(retrack)
      }
    }
    return effects
  }

  /// The answer to one message and the other effects of the command it carries.
  mutating func respond(to message: ClientMessage) -> [ReceiverEffect] {
    guard case .nmea(let line) = message, let command = try? PMTKCommand(parsing: line) else {
      return []
    }
    switch command.number {
    case 605: return [Self.reply(PMTKCommand(number: 705, fields: Self.firmwareRelease))]
    case 220, 300: return setFixInterval(command)
    case 314: return setSentenceMix(command)
    case 414: return [Self.reply(PMTKCommand(number: 514, fields: sentenceMix.map(String.init)))]
    case 251: return setBaud(command)
    case 101, 102, 103, 104: return restart(command)
    case let number where Self.acknowledgedCommands.contains(number):
      return [Self.acknowledge(command, .done)]
    default: return handleSetting(command) ?? [Self.acknowledge(command, .unsupported)]
    }
  }

  /// `PMTK220,ms` (and `PMTK300,ms,…`): the fix interval, 100–10000 ms.
  mutating func setFixInterval(_ command: PMTKCommand) -> [ReceiverEffect] {
    guard let milliseconds = command.fields.first.flatMap({ Int($0) }),
      (100...10_000).contains(milliseconds),
      let plan = try? CadencePlan(rateHz: 1000 / Double(milliseconds))
    else { return [Self.acknowledge(command, .failed)] }
    settings.fixIntervalMilliseconds = milliseconds
    return [Self.acknowledge(command, .done), .setRate(plan)]
  }

  /// `PMTK314,…`: a rate 0–5 per sentence in `PMTKSentenceMix.fieldSentences` order; `-1`
  /// restores the power-up mix.
  mutating func setSentenceMix(_ command: PMTKCommand) -> [ReceiverEffect] {
    if command.fields == ["-1"] {
      output = profile.defaultOutput(baud: profile.defaultBaud)
      return [Self.acknowledge(command, .done), .setOutput(output)]
    }
    guard let changed = PMTKSentenceMix.output(output, applying: command.fields) else {
      return [Self.acknowledge(command, .failed)]
    }
    output = changed
    return [Self.acknowledge(command, .done), .setOutput(changed)]
  }

  /// The rates of the current output in `PMTK314` field order.
  var sentenceMix: [Int] { PMTKSentenceMix.rates(of: output) }

  /// `PMTK251,baud`: one of the standard rates up to 115200; 0 means the factory rate.
  func setBaud(_ command: PMTKCommand) -> [ReceiverEffect] {
    guard let requested = command.fields.first.flatMap({ Int($0) }),
      requested == 0 || (4800...115_200).contains(requested),
      let pacing = try? BytePacing(baud: requested == 0 ? profile.defaultBaud : requested)
    else { return [Self.acknowledge(command, .failed)] }
    return [.setBaud(pacing)]
  }

  static func acknowledge(_ command: PMTKCommand, _ flag: Acknowledgement) -> ReceiverEffect {
    reply(PMTKCommand(number: 1, fields: [String(command.number), String(flag.rawValue)]))
  }

  static func reply(_ command: PMTKCommand) -> ReceiverEffect {
    .reply(Array((command.text + "\r\n").utf8))
  }
}
