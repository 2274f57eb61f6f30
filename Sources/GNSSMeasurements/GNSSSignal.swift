import Simulation

/// A signal a satellite broadcasts and a receiver measures: its system, carrier frequency and
/// RINEX 3 observation code (RINEX 3.04, 5.1). The signals are those a ZED-F9P tracks: GPS L1
/// C/A and L2C, Galileo E1 and E5b, BeiDou B1I and B2I, and GLONASS's FDMA L1 and L2 C/A (L1OF
/// and L2OF), whose frequency is each satellite's channel's (`frequencyHertz(channel:)`).
/// The raw values number the signals from 0 in the order of `allCases`, so that a table of
/// every signal can be an array indexed by them rather than a dictionary.
public enum GNSSSignal: Int, Hashable, Sendable, CaseIterable {
  case gpsL1CA, gpsL2CL, galileoE1C, galileoE5bQ, beidouB1I, beidouB2I, glonassL1OF, glonassL2OF

  /// The satellite system.
  public var constellation: Constellation {
    switch self {
    case .gpsL1CA, .gpsL2CL: return .gps
    case .galileoE1C, .galileoE5bQ: return .galileo
    case .beidouB1I, .beidouB2I: return .beidou
    case .glonassL1OF, .glonassL2OF: return .glonass
    }
  }

  /// The carrier frequency, Hz (IS-GPS-200 3.3.1.1, Galileo OS SIS ICD 2.3, BDS-SIS-ICD-B1I
  /// 4.2 and BDS-SIS-ICD-B2I 4.2); GLONASS's on channel 0.
  public var frequencyHertz: Double {
    switch self {
    case .gpsL1CA, .galileoE1C: return 1_575_420_000
    case .gpsL2CL: return 1_227_600_000
    case .galileoE5bQ, .beidouB2I: return 1_207_140_000
    case .beidouB1I: return 1_561_098_000
    case .glonassL1OF: return 1_602_000_000
    case .glonassL2OF: return 1_246_000_000
    }
  }

  /// The carrier frequency on GLONASS frequency channel `channel` (−7…6; GLONASS ICD 5.1,
  /// 3.3.1.4: 562.5 kHz apart on L1, 437.5 kHz on L2); the other systems' signals have one.
  public func frequencyHertz(channel: Int) -> Double {
    switch self {
    case .glonassL1OF: return frequencyHertz + Double(channel) * 562_500
    case .glonassL2OF: return frequencyHertz + Double(channel) * 437_500
    default: return frequencyHertz
    }
  }

  /// The wavelength, meters (GLONASS's on channel 0).
  public var wavelengthMeters: Double { GPSSignal.speedOfLight / frequencyHertz }

  /// The wavelength on GLONASS frequency channel `channel`, meters.
  public func wavelengthMeters(channel: Int) -> Double {
    GPSSignal.speedOfLight / frequencyHertz(channel: channel)
  }

  /// The RINEX 3 code: band and tracking mode.
  public var rinexCode: String {
    switch self {
    case .gpsL1CA, .galileoE1C, .glonassL1OF: return "1C"
    case .glonassL2OF: return "2C"
    case .gpsL2CL: return "2L"
    case .galileoE5bQ: return "7Q"
    case .beidouB1I: return "2I"
    case .beidouB2I: return "7I"
    }
  }

  /// The signal's C/N0 relative to its system's first signal, dB: our model of what a patch
  /// antenna and an F9P show (L2C a few dB weaker than L1 C/A, E5b as strong as E1, B2I about
  /// as B1I, GLONASS L2 a little weaker than L1), not a measured figure.
  public var carrierToNoiseOffset: Int {
    switch self {
    case .gpsL1CA, .galileoE1C, .beidouB1I, .galileoE5bQ, .glonassL1OF: return 0
    case .gpsL2CL: return -4
    case .glonassL2OF: return -2
    case .beidouB2I: return -1
    }
  }

  /// Its position among its system's signals (0 for the first), which seeds its noise.
  public var index: Int {
    switch self {
    case .gpsL1CA, .galileoE1C, .beidouB1I, .glonassL1OF: return 0
    case .gpsL2CL, .galileoE5bQ, .beidouB2I, .glonassL2OF: return 1
    }
  }

  /// The signals of a system, the first the one a single-frequency receiver tracks.
  public static func signals(of constellation: Constellation) -> [GNSSSignal] {
    allCases.filter { $0.constellation == constellation }
  }

  /// The weakest C/N0 a signal is tracked at, dB-Hz: below it the receiver loses it.
  public static let trackingThreshold = 20
}
