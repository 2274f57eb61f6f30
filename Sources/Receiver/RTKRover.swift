import Geodesy
import Simulation

/// A ZED-F9P's rover engine: what the corrections written to it (`CorrectionInput`) make of
/// each epoch's fix.
///
/// What the ZED-F9P integration manual (UBX-18010802, 3.1.5) documents:
/// - the rover needs the station's position (1005/1006) and its observations (MSM) from the
///   same station ID, or it cannot use them;
/// - CFG-NAVHPG-DGNSSMODE 3 fixes ambiguities, 2 keeps them float;
/// - without 1230 it leaves GLONASS ambiguities float;
/// - corrections older than CFG-NAVSPG-CONSTR_DGNSSTO (1–255 s, 60 by default) are dropped and
///   the solution falls back to a standalone fix; until then accuracy degrades by a few
///   centimetres a minute (u-blox support, "When my rover loses RTK fix…").
///
/// What is the emulator's own model, since no document gives figures:
/// - DGNSS from the first epoch with a station, its observations and four satellites the rover
///   and the station share; RTK float `floatSeconds` later and RTK fixed `fixedSeconds` after
///   that (each drawn from 0.5 to 1.5 times `RTKConvergence`'s mean, seeded by the time the
///   corrections began), both stretched with the baseline: float by 1 + b / 20 km, fixed by
///   1 + (b / 10 km)²; beyond `RTKConvergence.longestFixedBaselineMeters` (40 km) the
///   ambiguities stay float; fixed needs five shared satellites (GLONASS counted only with
///   1230);
/// - once the newest observations are older than half the timeout, fixed falls back to float,
///   so a client sees fixed, float, then standalone as corrections stop;
/// - a range error (`CorrectionUse.rangeErrorMeters`) of 0.5 m in DGNSS, from 0.5 m down to
///   0.05 m while float converges, 8 mm plus 1 ppm of the baseline when fixed (the F9P's data
///   sheet gives 0.01 m + 1 ppm CEP), plus 0.5 mm for each second of age (3 cm a minute).
///
/// The state is what arrived and when; the solution at an epoch is a function of it and the
/// epoch's time, so the order in which epochs are computed changes nothing.
public struct RTKRover: Hashable, Sendable {
  /// The chip's configuration of its rover.
  public var settings: RTKSettings
  /// How fast the solution converges.
  public var convergence: RTKConvergence
  /// The last station position received, and since when its ID has been received.
  private(set) var station: Station?
  /// Each system's last observations.
  private(set) var observations: [Constellation: Observations] = [:]
  /// The stations whose GLONASS biases arrived.
  private(set) var glonassBiasStations: Set<Int> = []
  /// When the current run of observations began: the first after none (or none within the
  /// timeout) or after a change of station.
  private(set) var streamStart: UTCInstant?

  struct Station: Hashable, Sendable {
    var id: Int
    var position: EarthCenteredPosition
    var since: UTCInstant
  }

  struct Observations: Hashable, Sendable {
    var stationID: Int
    var satellites: Set<Int>
    var time: UTCInstant
  }

  /// A rover that has received nothing.
  public init(settings: RTKSettings = RTKSettings(), convergence: RTKConvergence = RTKConvergence())
  {
    self.settings = settings
    self.convergence = convergence
  }

  /// True once anything has arrived.
  public var hasReceived: Bool { station != nil || !observations.isEmpty }

  /// Takes one message's input, received at `time`.
  public mutating func receive(_ input: CorrectionInput, at time: UTCInstant) {
    switch input {
    case .station(let id, let position):
      let since = station.flatMap { $0.id == id ? $0.since : nil } ?? time
      station = Station(id: id, position: position, since: since)
    case .observations(let id, let system, let satellites):
      let newest = observations.values.map(\.time).max()
      let sameStation = observations.values.allSatisfy { $0.stationID == id }
      if streamStart == nil || !sameStation || newest.map({ isOld($0, at: time) }) ?? true {
        streamStart = time
        observations = [:]
      }
      observations[system] = Observations(stationID: id, satellites: satellites, time: time)
    case .glonassBiases(let id):
      glonassBiasStations.insert(id)
    }
  }

  /// Forgets every correction, as a restarted chip does.
  public mutating func reset() {
    self = RTKRover(settings: settings, convergence: convergence)
  }

  /// True when observations received at `time` are past the timeout at `now`.
  func isOld(_ time: UTCInstant, at now: UTCInstant) -> Bool {
    Self.seconds(from: time, to: now) > settings.correctionTimeoutSeconds
  }

  static func seconds(from earlier: UTCInstant, to later: UTCInstant) -> Double {
    Double(later.nanoseconds(since: earlier)) / 1e9
  }
}

/// The rover items of a u-blox 9's configuration the emulator follows.
public struct RTKSettings: Hashable, Sendable {
  /// CFG-NAVSPG-CONSTR_DGNSSTO: how old corrections may be before they are dropped, seconds.
  public var correctionTimeoutSeconds: Double
  /// CFG-NAVHPG-DGNSSMODE: 3 (RTK fixed) fixes ambiguities, 2 (RTK float) does not.
  public var fixesAmbiguities: Bool

  /// The factory settings: 60 s, ambiguities fixed.
  public init(correctionTimeoutSeconds: Double = 60, fixesAmbiguities: Bool = true) {
    self.correctionTimeoutSeconds = correctionTimeoutSeconds
    self.fixesAmbiguities = fixesAmbiguities
  }
}

/// How long a rover takes to reach RTK float and then RTK fixed on a short baseline (the
/// means of seeded draws; see `RTKRover`).
public struct RTKConvergence: Hashable, Sendable {
  /// The baseline beyond which ambiguities are never fixed, meters.
  public static let longestFixedBaselineMeters = 40_000.0

  /// Mean seconds from the first corrections to RTK float.
  public var floatSeconds: Double
  /// Mean seconds from RTK float to RTK fixed.
  public var fixedSeconds: Double
  /// The seed of the draws.
  public var seed: UInt64

  /// 5 s to float and 15 s more to fixed by default (the F9P's data sheet: convergence under
  /// 10 s typically, for a short baseline and open sky).
  public init(floatSeconds: Double = 5, fixedSeconds: Double = 15, seed: UInt64 = 0) {
    self.floatSeconds = floatSeconds
    self.fixedSeconds = fixedSeconds
    self.seed = seed
  }
}
