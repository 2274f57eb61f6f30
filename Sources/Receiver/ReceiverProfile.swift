import Simulation
import UBX

/// A receiver personality (`--profile NAME`): what a chip of that kind sends, in which NMEA
/// dialect, and which commands it answers.
///
/// PLACEHOLDER (issue 8 contract): only `generic` exists and `dialect` is not there yet; the
/// NMEA dialect helper fills in the catalogue and the dialect. The fields below are the
/// contract the other parts use.
public struct ReceiverProfile: Hashable, Sendable {
  /// Which commands a client can send the chip, and how it answers them.
  public enum CommandSet: String, Hashable, Sendable {
    /// Answers nothing (today's generic receiver): commands are noted and ignored.
    case none
    /// u-blox 8 (protocol 18-23): UBX CFG-MSG, CFG-PRT, CFG-RATE, MON-VER.
    case ubloxM8
    /// u-blox 9 (protocol 27+): as M8 plus CFG-VALSET/VALGET.
    case ubloxF9
    /// MediaTek PMTK commands.
    case mtk
    /// SiRF in NMEA mode: answers nothing that gpsd 3.22 sends; `$PSRF100` (to binary) is
    /// ignored, so it stays an NMEA receiver.
    case sirf
  }

  /// The name `--profile` takes.
  public var name: String
  /// One line for `mockgps profiles`.
  public var summary: String
  /// How it answers commands.
  public var commandSet: CommandSet
  /// The systems it tracks unless `--constellations` says otherwise.
  public var defaultConstellations: Set<Constellation>
  /// The most satellites it tracks at once.
  public var channelLimit: Int
  /// Its factory line speed.
  public var defaultBaud: Int
  /// What it sends after power-up.
  public var defaultOutput: OutputSelection

  /// Creates a profile.
  public init(
    name: String, summary: String, commandSet: CommandSet,
    defaultConstellations: Set<Constellation>, channelLimit: Int, defaultBaud: Int,
    defaultOutput: OutputSelection
  ) {
    self.name = name
    self.summary = summary
    self.commandSet = commandSet
    self.defaultConstellations = defaultConstellations
    self.channelLimit = channelLimit
    self.defaultBaud = defaultBaud
    self.defaultOutput = defaultOutput
  }

  /// Today's output: NMEA 2.3, GP talker, the sentences of `EpochEncoder.sentenceOrder`.
  public static let generic = ReceiverProfile(
    name: "generic", summary: "NMEA 2.3 receiver: GP talker, RMC VTG GGA GSA GSV GLL ZDA",
    commandSet: .none, defaultConstellations: [.gps], channelLimit: 12, defaultBaud: 9600,
    defaultOutput: OutputSelection(nmeaEveryEpoch: EpochEncoder.sentenceOrder))

  /// The sentences the chip sends once at power-up, without line ending (a u-blox `GNTXT`
  /// banner, MediaTek's `$PMTK010,001*2E`); none for the generic receiver.
  public var powerUpSentences: [String] { [] }

  /// What the chip sends after power-up at this line speed (a SiRF at 4800 baud sends GSV
  /// only every few epochs, so that an epoch fits the line).
  public func defaultOutput(baud: Int) -> OutputSelection { defaultOutput }

  /// Every profile, in the order `mockgps profiles` lists them.
  public static let all: [ReceiverProfile] = [.generic]

  /// The profile with this name, or nil.
  public static func named(_ name: String) -> ReceiverProfile? {
    all.first { $0.name == name }
  }
}
