/// A satellite system's Multiple Signal Messages: their numbers and the signal-ID table
/// (RTCM 10403.3, 3.5.16, Tables 3.5-91 to 3.5-108). Everything else of MSM is common to all
/// systems, so a system is only this table.
public struct MSMSystem: Hashable, Sendable {
  /// A signal of the table.
  public struct Signal: Hashable, Sendable {
    /// The RINEX 3 observation code (band and attribute), e.g. `1C`.
    public var code: String
    /// The carrier frequency, Hz; nil for GLONASS FDMA signals, whose frequency depends on the
    /// satellite's channel (the extended satellite information).
    public var frequencyHertz: Double?
  }

  /// The system's name.
  public var name: String
  /// The number of its MSM1 minus one: MSMn is `baseMessageNumber + n`.
  public var baseMessageNumber: Int
  /// The time its epoch time field counts in.
  public var timeScale: TimeScale
  /// The signals by signal ID (1–32).
  public var signals: [Int: Signal]

  /// A system from its codes by signal ID (an empty code for an unused ID) and the carrier
  /// frequency of each band (the code's first character).
  init(
    name: String, baseMessageNumber: Int, timeScale: TimeScale = .gps, codes: [String],
    bands: [Character: Double]
  ) {
    self.name = name
    self.baseMessageNumber = baseMessageNumber
    self.timeScale = timeScale
    var signals: [Int: Signal] = [:]
    for (index, code) in codes.enumerated() where !code.isEmpty {
      signals[index + 1] = Signal(code: code, frequencyHertz: code.first.flatMap { bands[$0] })
    }
    self.signals = signals
  }

  /// The signal ID of a RINEX code, nil when the table has none.
  public func signalID(code: String) -> Int? {
    signals.first { $0.value.code == code }?.key
  }

  /// GPS: 1071–1077.
  public static let gps = MSMSystem(
    name: "GPS", baseMessageNumber: 1070,
    codes: [
      "", "1C", "1P", "1W", "", "", "", "2C", "2P", "2W", "", "", "", "", "2S", "2L", "2X", "",
      "", "", "", "5I", "5Q", "5X", "", "", "", "", "", "1S", "1L", "1X",
    ],
    bands: ["1": 1_575_420_000, "2": 1_227_600_000, "5": 1_176_450_000])

  /// GLONASS: 1081–1087 (FDMA signals: no fixed frequency).
  public static let glonass = MSMSystem(
    name: "GLONASS", baseMessageNumber: 1080, timeScale: .glonass,
    codes: ["", "1C", "1P", "", "", "", "", "2C", "2P"] + Array(repeating: "", count: 23),
    bands: [:])

  /// Galileo: 1091–1097.
  public static let galileo = MSMSystem(
    name: "Galileo", baseMessageNumber: 1090,
    codes: [
      "", "1C", "1A", "1B", "1X", "1Z", "", "6C", "6A", "6B", "6X", "6Z", "", "7I", "7Q", "7X",
      "", "8I", "8Q", "8X", "", "5I", "5Q", "5X", "", "", "", "", "", "", "", "",
    ],
    bands: [
      "1": 1_575_420_000, "5": 1_176_450_000, "6": 1_278_750_000, "7": 1_207_140_000,
      "8": 1_191_795_000,
    ])

  /// BeiDou: 1121–1127 (`2` is B1I, as RINEX 3.02 names it).
  public static let beidou = MSMSystem(
    name: "BeiDou", baseMessageNumber: 1120, timeScale: .beidou,
    codes: [
      "", "2I", "2Q", "2X", "", "", "", "6I", "6Q", "6X", "", "", "", "7I", "7Q", "7X", "", "",
      "", "", "", "5D", "5P", "5X", "7D", "", "", "", "", "1D", "1P", "1X",
    ],
    bands: [
      "1": 1_575_420_000, "2": 1_561_098_000, "5": 1_176_450_000, "6": 1_268_520_000,
      "7": 1_207_140_000,
    ])

  /// The systems whose MSM the decoder knows.
  public static let all = [gps, glonass, galileo, beidou]

  /// The system and kind of an MSM number, nil for any other message.
  public static func system(ofMessage number: Int) -> (MSMSystem, MSMKind)? {
    guard let kind = MSMKind(rawValue: number % 10),
      let system = all.first(where: { $0.baseMessageNumber == number - number % 10 })
    else { return nil }
    return (system, kind)
  }
}

/// The time an MSM's 30-bit epoch time counts (RTCM 10403.3, DF004, DF248, DF416/DF034,
/// DF427): milliseconds of the GPS week for GPS and Galileo (whose system time keeps GPS's
/// seconds), of the BeiDou week (14 s behind) for BeiDou, and for GLONASS the day of the week
/// (3 bits, 0 Sunday) and milliseconds of the day in Moscow time (UTC + 3 h).
public enum TimeScale: Hashable, Sendable {
  /// GPS time; Galileo's too.
  case gps
  /// BeiDou time: GPS time − 14 s.
  case beidou
  /// GLONASS time: UTC + 3 h.
  case glonass

  /// The epoch time field of the moment `secondsOfWeek` into a GPS week (a whole number of
  /// milliseconds), GPS − UTC being `leapSeconds`.
  public func epochTime(gpsSecondsOfWeek secondsOfWeek: Double, leapSeconds: Int) -> Int {
    let week = 604_800_000
    let milliseconds = Int((secondsOfWeek * 1000).rounded())
    switch self {
    case .gps: return milliseconds % week
    case .beidou: return (milliseconds - 14_000 + week) % week
    case .glonass:
      let moscow = (milliseconds - leapSeconds * 1000 + 3 * 3_600_000 + week) % week
      return (moscow / 86_400_000) << 27 | moscow % 86_400_000
    }
  }
}

/// Which fields an MSM carries; MSM4 and MSM7 are implemented (MSM5 and MSM6 would be rows of
/// the same field lists).
public enum MSMKind: Int, Hashable, Sendable, CaseIterable {
  /// Full pseudoranges, phase ranges, lock time, half-cycle and CNR.
  case msm4 = 4
  /// MSM4's fields at high resolution, plus the extended satellite information and the phase
  /// range rates.
  case msm7 = 7

  /// True when the message carries phase range rates and the extended satellite information.
  var hasRates: Bool { self == .msm7 }
  /// Bits and unit (milliseconds) of the fine pseudorange (DF400 or DF405).
  var finePseudorange: (width: Int, unit: Double) {
    self == .msm7 ? (20, 0x1p-29) : (15, 0x1p-24)
  }
  /// Bits and unit (milliseconds) of the fine phase range (DF401 or DF406).
  var finePhaseRange: (width: Int, unit: Double) {
    self == .msm7 ? (24, 0x1p-31) : (22, 0x1p-29)
  }
  /// Bits of the lock time indicator (DF402 or DF407).
  var lockTimeWidth: Int { self == .msm7 ? 10 : 4 }
  /// Bits and unit (dB-Hz) of the CNR (DF403 or DF408).
  var carrierToNoise: (width: Int, unit: Double) { self == .msm7 ? (10, 0x1p-4) : (6, 1) }
}
