import NMEA
import Simulation
import UBX

/// A receiver personality (`--profile NAME`): what a chip of that kind sends, in which NMEA
/// dialect, and which commands it answers.
/// The catalogue (`all`) is in `ReceiverProfile+Catalogue.swift`.
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
    /// SiRF: NMEA until `$PSRF100,0,…` switches it to SiRF binary, whose input messages it
    /// then answers.
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
  /// How it writes NMEA.
  public var dialect: NMEADialect
  /// The sentences the chip sends once at power-up, without line ending (a u-blox `GNTXT`
  /// banner, MediaTek's `$PMTK010,001*2E`); none for the generic receiver.
  public var powerUpSentences: [String]
  /// What it sends after power-up on a slow line instead of `defaultOutput`, if anything.
  public var slowLineOutput: SlowLineOutput?
  /// How long after an epoch's instant its first byte leaves unless `--output-delay` says
  /// otherwise. None for every profile: no capture of these chips with arrival times was at
  /// hand to take a figure from, and a made-up one would mislead the time users who calibrate
  /// against it.
  public var outputDelay = OutputDelay.none

  /// The output a chip sends at and below a line speed, so that an epoch fits the line.
  public struct SlowLineOutput: Hashable, Sendable {
    /// The fastest line speed this output applies to.
    public var maximumBaud: Int
    /// What goes out at such speeds.
    public var output: OutputSelection

    /// Creates a slow-line output.
    public init(maximumBaud: Int, output: OutputSelection) {
      self.maximumBaud = maximumBaud
      self.output = output
    }
  }

  /// Creates a profile.
  public init(
    name: String, summary: String, commandSet: CommandSet,
    defaultConstellations: Set<Constellation>, channelLimit: Int, defaultBaud: Int,
    defaultOutput: OutputSelection, dialect: NMEADialect = .generic,
    powerUpSentences: [String] = [], slowLineOutput: SlowLineOutput? = nil
  ) {
    self.name = name
    self.summary = summary
    self.commandSet = commandSet
    self.defaultConstellations = defaultConstellations
    self.channelLimit = channelLimit
    self.defaultBaud = defaultBaud
    self.defaultOutput = defaultOutput
    self.dialect = dialect
    self.powerUpSentences = powerUpSentences
    self.slowLineOutput = slowLineOutput
  }

  /// What the chip sends after power-up at this line speed (a SiRF at 4800 baud sends GSV
  /// only every few epochs, so that an epoch fits the line).
  public func defaultOutput(baud: Int) -> OutputSelection {
    guard let slowLineOutput, baud <= slowLineOutput.maximumBaud else { return defaultOutput }
    return slowLineOutput.output
  }

  /// The names of every profile, comma-separated, for error messages.
  public static var validNames: String { all.map(\.name).joined(separator: ", ") }

  /// The profile with this name, or nil.
  public static func named(_ name: String) -> ReceiverProfile? {
    all.first { $0.name == name }
  }
}
