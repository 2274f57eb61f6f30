import DeviceRuntime
import Receiver
import Simulation

/// Notes each message a client sends at debug level, then hands it to the chip's handler (by
/// default one that answers nothing).
public struct LoggingCommandHandler: ReceiverCommandHandler {
  let log: Log
  private var chip: any ReceiverCommandHandler

  /// Creates a handler that writes to `log` and answers as `chip` does.
  public init(log: Log, chip: any ReceiverCommandHandler = SilentCommandHandler()) {
    self.log = log
    self.chip = chip
  }

  public mutating func handle(_ message: ClientMessage) -> [ReceiverEffect] {
    log.debug("client sent \(message)")
    let effects = chip.handle(message)
    if !effects.isEmpty { log.debug("the receiver answers: \(effects.map(Self.summary))") }
    return effects
  }

  public mutating func takeInputFaults() -> [UBXInputFault] { chip.takeInputFaults() }

  public mutating func takeRefusedItems() -> [ChipStateError] { chip.takeRefusedItems() }

  public var powerUpEffects: [ReceiverEffect] { chip.powerUpEffects }

  public mutating func noteLineTraffic(receivedBytes: Int, skippedBytes: Int, sentBytes: Int) {
    chip.noteLineTraffic(
      receivedBytes: receivedBytes, skippedBytes: skippedBytes, sentBytes: sentBytes)
  }

  /// `on (3 types)`, or `off` when the protocol is off or no type of it goes out.
  private static func onOrOff(_ enabled: Bool, _ rates: some Collection<Int>) -> String {
    let types = rates.filter { $0 > 0 }.count
    return enabled && types > 0 ? "on (\(types) types)" : "off"
  }

  /// A short text for the log: `reply of 10 bytes`, `rate 5 Hz`, `baud 115200`, `output …`.
  static func summary(_ effect: ReceiverEffect) -> String {
    switch effect {
    case .reply(let bytes): return "reply of \(bytes.count) bytes"
    case .replyFromEpoch(let type): return "reply \(type) of the last epoch"
    case .setRate(let cadence): return "rate \(cadence.rateText) Hz"
    case .setBaud(let pacing): return "baud \(pacing.baud)"
    case .setOutput(let output):
      let sirf =
        output.sirfProtocolEnabled
        ? ", SiRF \(onOrOff(output.sirfProtocolEnabled, output.sirf.values))" : ""
      return "output NMEA \(onOrOff(output.nmeaProtocolEnabled, output.nmea.values)), "
        + "UBX \(onOrOff(output.ubxProtocolEnabled, output.ubx.values))" + sirf
    case .setDialect(let dialect):
      let talker = dialect.mainTalker.map { ", main talker \($0)" } ?? ""
      let gsv = dialect.gsvUsesMainTalker ? ", GSV under the main talker" : ""
      let limit = dialect.gsvSatelliteLimit.map { ", at most \($0) satellites per GSV group" } ?? ""
      return "NMEA \(dialect.version.text)" + talker + gsv + limit
    case .setTracking(let systems, let sbasPRNs):
      let names = Constellation.allCases.filter(systems.contains).map(\.rawValue)
      let scanned =
        !systems.contains(.sbas) || sbasPRNs == Set(SBASSatellite.prns)
        ? "" : " (SBAS PRN " + sbasPRNs.sorted().map(String.init).joined(separator: ", ") + ")"
      return "tracking " + (names.isEmpty ? "no system" : names.joined(separator: ", ")) + scanned
    case .setPortTraffic: return "port traffic for MON-COMMS"
    case .useCorrections(let input): return "corrections: \(input.summary)"
    case .setRover(let settings):
      return "rover: corrections dropped after \(Int(settings.correctionTimeoutSeconds)) s, "
        + (settings.fixesAmbiguities ? "RTK fixed" : "RTK float only")
    case .setBase(let settings):
      switch settings.mode {
      case .disabled: return "base: no time mode"
      case .surveyIn(let seconds, let meters):
        return "base: survey-in for \(seconds) s and \(meters) m, station \(settings.stationID)"
      case .fixed(_, let meters):
        return "base: fixed position (\(meters) m), station \(settings.stationID)"
      }
    case .restart(let restart):
      return "\(restart.start) start" + (restart.powersUp ? " after power-up" : "")
    }
  }
}
