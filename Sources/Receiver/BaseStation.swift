import Geodesy
import Simulation

/// A u-blox 9's time mode as a reference station (CFG-TMODE-*): a survey-in that averages its
/// own positions until it has run long enough and the mean is accurate enough, or a fixed
/// position; in time mode the station sends that position in RTCM 1005.
///
/// The survey-in's mean is the emulator's model, since u-blox documents the procedure, not its
/// figures: the fixes it averages have a one-sigma 3D error of `positionSigmaMeters` that is
/// correlated over `correlationSeconds`, so after d seconds the mean holds 1 + d / 60
/// independent samples and its accuracy is 2.5 m / √(1 + d / 60) (1.8 m after a minute, 1 m
/// after five, 0.5 m after 24); the mean lies that accuracy times a seeded unit normal per
/// axis away from the true antenna, in a direction seeded by the survey's start. The survey
/// ends at the first second both its minimum duration and accuracy limit are met; the mean
/// then stands as the station's position.
public struct BaseStation: Hashable, Sendable {
  /// The one-sigma 3D error of one standalone fix, meters.
  public static let positionSigmaMeters = 2.5
  /// Over how long the errors of successive fixes are correlated, seconds.
  public static let correlationSeconds = 60.0

  /// The configured mode.
  public private(set) var settings = BaseSettings()
  /// When the survey-in under way began.
  private(set) var surveyStart: UTCInstant?
  /// The seed of the survey's errors.
  public var seed: UInt64 = 0

  /// A station in no time mode.
  public init(seed: UInt64 = 0) {
    self.seed = seed
  }

  /// Takes the chip's settings at `time`: a survey-in (re)starts when the mode or its limits
  /// change (not when only the station ID does).
  public mutating func configure(_ settings: BaseSettings, at time: UTCInstant) {
    let modeChanged = settings.mode != self.settings.mode
    self.settings = settings
    guard modeChanged else { return }
    if case .surveyIn = settings.mode { surveyStart = time } else { surveyStart = nil }
  }

  /// A restart of the chip whose navigation has a fix again at `time`: a survey-in starts over
  /// from there (its positions are lost with the restart).
  public mutating func restart(fixFrom time: UTCInstant) {
    if case .surveyIn = settings.mode { surveyStart = time }
  }

  /// The accuracy of a survey's mean after `seconds`, meters.
  static func meanAccuracy(afterSeconds seconds: Double) -> Double {
    positionSigmaMeters / (1 + max(0, seconds) / correlationSeconds).squareRoot()
  }

  /// The whole seconds a survey with these limits runs: the first at which both are met.
  static func surveySeconds(minimumSeconds: Int, accuracyLimitMeters: Double) -> Int {
    let ratio = positionSigmaMeters / max(accuracyLimitMeters, 1e-4)
    let forAccuracy = max(0, (ratio * ratio - 1) * correlationSeconds)
    return max(minimumSeconds, Int(forAccuracy.rounded(.up)))
  }

  /// What the station reports at `time` with its antenna truly at `antenna`; nil out of time
  /// mode.
  public func report(at time: UTCInstant, antenna: EarthCenteredPosition) -> BaseStationReport? {
    switch settings.mode {
    case .disabled:
      return nil
    case .fixed(let position, let accuracy):
      return BaseStationReport(
        surveySeconds: 0, mean: position, meanAccuracyMeters: accuracy, observations: 0,
        isValid: false, isActive: false, reference: position)
    case .surveyIn(let minimum, let limit):
      guard let surveyStart, surveyStart <= time else { return nil }
      let elapsed = Int(time.nanoseconds(since: surveyStart) / 1_000_000_000)
      let end = Self.surveySeconds(minimumSeconds: minimum, accuracyLimitMeters: limit)
      let seconds = min(elapsed, end)
      let accuracy = Self.meanAccuracy(afterSeconds: Double(seconds))
      var generator = FaultRandomNumberGenerator(seed: seed, time: surveyStart)
      // The accuracy along a seeded direction.
      let (x, y, z) = (
        generator.nextStandardNormal(), generator.nextStandardNormal(),
        generator.nextStandardNormal()
      )
      let length = max((x * x + y * y + z * z).squareRoot(), 1e-9)
      let mean = EarthCenteredPosition(
        x: antenna.x + x / length * accuracy, y: antenna.y + y / length * accuracy,
        z: antenna.z + z / length * accuracy)
      let done = elapsed >= end
      return BaseStationReport(
        surveySeconds: seconds, mean: mean, meanAccuracyMeters: accuracy,
        observations: seconds + 1, isValid: done, isActive: !done, reference: done ? mean : nil)
    }
  }
}

/// The time mode items of a u-blox 9's configuration, and the station ID its RTCM carries.
public struct BaseSettings: Hashable, Sendable {
  /// CFG-TMODE-MODE.
  public enum Mode: Hashable, Sendable {
    case disabled
    /// Survey-in: CFG-TMODE-SVIN_MIN_DUR (s) and CFG-TMODE-SVIN_ACC_LIMIT (m).
    case surveyIn(minimumSeconds: Int, accuracyLimitMeters: Double)
    /// A fixed antenna position (CFG-TMODE-ECEF_* or LAT/LON/HEIGHT) and its accuracy
    /// (CFG-TMODE-FIXED_POS_ACC, m).
    case fixed(EarthCenteredPosition, accuracyMeters: Double)
  }

  public var mode: Mode
  /// CFG-RTCM-DF003_OUT: the reference station ID of the RTCM it sends (0–4095).
  public var stationID: Int

  /// Settings.
  public init(mode: Mode = .disabled, stationID: Int = 0) {
    self.mode = mode
    self.stationID = stationID
  }
}
