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
/// A moving base (u-blox 4072.0 with MSM, ZED-F9P moving base applications note) leaves the rover's own
/// position standalone: the solution is that of the vector from the base's antenna to the
/// rover's at the base's latest epoch (`Fix.movingBaseline`, NAV-RELPOSNED with `isMoving`).
///
/// What is the emulator's own model, since no document gives figures:
/// - DGNSS from the first epoch with a station, its observations and four satellites the rover
///   and the station share; RTK float after `floatSeconds` of corrections flowing and RTK fixed
///   after `fixedSeconds` more (each drawn from 0.5 to 1.5 times `RTKConvergence`'s mean,
///   seeded by the seed and the number of the run of corrections), both stretched with the
///   baseline: float by 1 + b / 20 km, fixed by 1 + (b / 10 km)²; corrections that stop stop
///   the convergence too (`Run`); beyond `RTKConvergence.longestFixedBaselineMeters` (40 km)
///   the ambiguities stay float, and a station beyond `farthestStationMeters` (1,000 km) is
///   not used; fixed needs five shared satellites (GLONASS counted only with 1230);
/// - the age of the corrections is the rover's time minus the newest observation epoch (MSM's
///   epoch time, not the arrival); once it is over half the timeout, fixed falls back to float,
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
  /// The last station position received.
  private(set) var station: Station?
  /// Each system's last observations.
  private(set) var observations: [Constellation: Observations] = [:]
  /// The stations whose GLONASS biases arrived.
  private(set) var glonassBiasStations: Set<Int> = []
  /// The run of corrections under way: how long they have flowed, how many runs there were.
  private(set) var run = Run()

  struct Station: Hashable, Sendable {
    var id: Int
    var position: EarthCenteredPosition
    /// The epoch of a moving base's position (4072.0); nil for a fixed station (1005, 1006).
    var epoch: UTCInstant?
  }

  /// One system's observations of an epoch.
  struct Observations: Hashable, Sendable {
    var stationID: Int
    var satellites: Set<Int>
    /// The epoch the station observed (MSM's DF004 resolved), not when it arrived.
    var time: UTCInstant
  }

  /// A run of corrections: the first observations after none (or none within the timeout) or
  /// after a change of station, and the seconds they have flowed since, counted between
  /// observation epochs at most `continuityLimitSeconds` apart while the station's position
  /// is known: the solution converges only while corrections keep coming.
  struct Run: Hashable, Sendable {
    /// When the run's first observations arrived.
    var start: UTCInstant?
    /// Seconds of corrections flowing.
    var flowingSeconds = 0.0
    /// The newest observation epoch of the run.
    var newest: UTCInstant?
    /// Runs so far: the convergence draws are seeded by it.
    var number = 0
  }

  /// Observation epochs further apart than this are a gap, not a flow, seconds.
  static let continuityLimitSeconds = 5.0
  /// How far ahead of its arrival an observation epoch may lie (clocks and rounding), seconds;
  /// later ones are refused.
  static let futureToleranceSeconds = 1.0

  /// A rover that has received nothing.
  public init(settings: RTKSettings = RTKSettings(), convergence: RTKConvergence = RTKConvergence())
  {
    self.settings = settings
    self.convergence = convergence
  }

  /// True once anything has arrived.
  public var hasReceived: Bool { station != nil || !observations.isEmpty }

  /// Takes one message's input, received at `time`. Observations whose epoch (MSM's DF004,
  /// resolved around the arrival) lies in the future or is already past the timeout are
  /// refused, as a replayed or delayed stream is.
  public mutating func receive(_ input: CorrectionInput, at time: UTCInstant) {
    switch input {
    case .station(let id, let position):
      if let station, station.id != id || station.epoch != nil { startRun() }
      station = Station(id: id, position: position)
    case .movingStation(let id, let position, let epochTime):
      guard let epoch = CorrectionInput.epoch(of: epochTime, system: .gps, near: time),
        Self.seconds(from: time, to: epoch) <= Self.futureToleranceSeconds,
        !isOld(epoch, at: time)
      else { return }
      if let station, station.id != id || station.epoch == nil { startRun() }
      // A position older than the one held (a stream out of order) is not taken.
      if let held = station?.epoch, station?.id == id, epoch < held { return }
      station = Station(id: id, position: position, epoch: epoch)
    case .observations(let id, let system, let satellites, let epochTime):
      guard let epoch = CorrectionInput.epoch(of: epochTime, system: system, near: time),
        Self.seconds(from: time, to: epoch) <= Self.futureToleranceSeconds,
        !isOld(epoch, at: time)
      else { return }
      let sameStation = observations.values.allSatisfy { $0.stationID == id }
      if run.start == nil || !sameStation || run.newest.map({ isOld($0, at: epoch) }) ?? true {
        startRun()
        run.start = time
      }
      if let newest = run.newest, station?.id == id {
        let step = Self.seconds(from: newest, to: epoch)
        if step > 0, step <= Self.continuityLimitSeconds { run.flowingSeconds += step }
      }
      run.newest = max(run.newest ?? epoch, epoch)
      observations[system] = Observations(stationID: id, satellites: satellites, time: epoch)
    case .glonassBiases(let id):
      glonassBiasStations.insert(id)
    }
  }

  /// Starts a new run: what flowed before no longer counts, and its observations are dropped.
  private mutating func startRun() {
    run = Run(number: run.number + 1)
    observations = [:]
  }

  /// Forgets every correction, as a restarted chip does.
  public mutating func reset() {
    self = RTKRover(settings: settings, convergence: convergence)
  }

  /// True when observations of epoch `time` are past the timeout at `now`.
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
