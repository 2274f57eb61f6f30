import NMEA
import SiRF

/// A SiRFstar IV (GSD4e firmware, as in a GlobalSat BU-353S4) answering what a client writes:
/// in NMEA mode the `$PSRF100` that switches it to SiRF binary, in binary mode the binary
/// input messages (`SiRFCommandHandler+Binary.swift`).
///
/// In NMEA mode binary input is ignored (gpsd's `drivers.c`: "the MID132 binary request for
/// firmware version is ignored in NMEA mode"), and `$PSRF100` with a protocol other than
/// binary, or a baud the chip does not run at, changes nothing and gets no answer, as NMEA
/// input on a SiRF never does.
public struct SiRFCommandHandler: ReceiverCommandHandler {
  /// The version MID 6 reports: the firmware of gpsd's `bu353s4.log` capture.
  public static let softwareVersion =
    "GSD4e_4.0.4-P1_RPATCH.07-GS008-F-GPS-4R-1201128 01/12/2012 012"
  /// The customer version string MID 6 carries after it; empty on that module.
  public static let customerVersion = ""
  /// The line speeds `$PSRF100` and MID 134 accept.
  public static let bauds: Set<Int> = [4800, 9600, 19200, 38400, 57600, 115_200]

  /// The chip.
  public let profile: ReceiverProfile
  /// What it sends, as configured so far: NMEA sentences, or SiRF binary messages.
  public internal(set) var output: OutputSelection
  /// The navigation parameters MID 136 sets and MID 152 polls.
  public internal(set) var navigationParameters = SiRFNavigationParameters()

  /// A chip in its power-up state: NMEA at the profile's output for `baud`.
  public init(profile: ReceiverProfile, baud: Int? = nil) {
    self.profile = profile
    output = profile.defaultOutput(baud: baud ?? profile.defaultBaud)
  }

  /// True once the port speaks SiRF binary.
  public var isBinary: Bool { output.sirfProtocolEnabled }

  public mutating func handle(_ message: ClientMessage) -> [ReceiverEffect] {
    switch message {
    case .nmea(let line):
      guard !isBinary, let sentence = try? RawSentence(parsing: line),
        sentence.address == "PSRF100"
      else { return [] }
      return setSerialPort(sentence.fields)
    case .sirf(let frame):
      guard isBinary else { return [] }
      return handleBinary(frame)
    case .ubx, .rtcm:
      return []
    }
  }

  /// `$PSRF100,protocol,baud,data bits,stop bits,parity`: protocol 0 switches to SiRF binary
  /// (8N1 only), 1 keeps NMEA at the new baud.
  mutating func setSerialPort(_ fields: [String]) -> [ReceiverEffect] {
    guard fields.count >= 5, let mode = Int(fields[0]), let baud = Int(fields[1]),
      Self.bauds.contains(baud), fields[2] == "8", fields[3] == "1", fields[4] == "0",
      let pacing = try? BytePacing(baud: baud)
    else { return [] }
    switch mode {
    case 0:
      output.nmeaProtocolEnabled = false
      output.sirfProtocolEnabled = true
      output.sirf = SiRFNavigationEncoder.defaultRates
      return [.setOutput(output), .setBaud(pacing)]
    case 1:
      return [.setBaud(pacing)]
    default:
      return []
    }
  }

  /// Back to NMEA with these sentence rates.
  mutating func switchToNMEA(rates: [String: Int]) -> ReceiverEffect {
    output.nmea = rates
    output.nmeaProtocolEnabled = true
    output.sirfProtocolEnabled = false
    return .setOutput(output)
  }

  static func reply(_ frame: SiRFFrame) -> ReceiverEffect { .reply(frame.bytes) }
}
