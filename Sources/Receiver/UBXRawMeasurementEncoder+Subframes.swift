import GNSSMeasurements
import Simulation
import UBX

/// RXM-SFRBX: each tracked satellite's navigation message, one part as soon as it has been
/// received: a GPS LNAV subframe every 6 s (on L1 C/A), a Galileo I/NAV page pair every 2 s (on
/// E1-B), a BeiDou D1 subframe every 6 s (on B1I), a GLONASS string every 2 s (on L1OF). Each
/// part ends on its system's time scale's multiple of its length, and an epoch sends every part
/// that ended since the epoch before (at a slow rate, several of a satellite), of the
/// satellites tracked on their first signal.
extension UBXRawMeasurementEncoder {
  /// A navigation message's parts: their length and the system's time scale.
  struct MessageSchedule {
    /// The length of one part (subframe, page pair or string), nanoseconds.
    var partNanoseconds: Int64
    /// The system's time scale behind GPS time, nanoseconds, besides the leap seconds.
    var behindGPSNanoseconds: Int64
    /// True when the scale follows UTC (GLONASS's): it is then also GPS − UTC behind GPS time.
    var followsUTC = false

    static let lnav = MessageSchedule(partNanoseconds: 6_000_000_000, behindGPSNanoseconds: 0)
    static let inav = MessageSchedule(partNanoseconds: 2_000_000_000, behindGPSNanoseconds: 0)
    static let d1 = MessageSchedule(
      partNanoseconds: 6_000_000_000, behindGPSNanoseconds: 14_000_000_000)
    /// GLONASS: Moscow time, UTC + 3 h, counted from 1980-01-06 00:00 Moscow time.
    static let glonass = MessageSchedule(
      partNanoseconds: 2_000_000_000, behindGPSNanoseconds: -10_800_000_000_000, followsUTC: true)

    /// The starts (nanoseconds since the system's scale's epoch) of the parts that ended
    /// within `periodNanoseconds` before `time`, the oldest first.
    func partStartsEnded(before time: GPSTime, periodNanoseconds: Int64) -> [Int64] {
      let leap = followsUTC ? Int64(time.leapSeconds) * 1_000_000_000 : 0
      let system = time.nanosecondsSinceEpoch - behindGPSNanoseconds - leap
      var end = system - system % partNanoseconds
      var starts: [Int64] = []
      while system - end < periodNanoseconds, end >= partNanoseconds {
        starts.insert(end - partNanoseconds, at: 0)
        end -= partNanoseconds
      }
      return starts
    }

    /// The starts (seconds of the system's week, counted from GPS week 0 on its scale) of the
    /// parts that ended within `periodNanoseconds` before `time`, the oldest first.
    func partsEnded(before time: GPSTime, periodNanoseconds: Int64) -> [(
      week: Int, secondsOfWeek: Double
    )] {
      let weekNanoseconds: Int64 = 604_800_000_000_000
      return partStartsEnded(before: time, periodNanoseconds: periodNanoseconds).map {
        (Int($0 / weekNanoseconds), Double($0 % weekNanoseconds) / 1e9)
      }
    }
  }

  /// RXM-SFRBX of each part of a tracked satellite's message that ended since the previous
  /// epoch.
  func subframes(at time: UTCInstant, tracked: [SatelliteInView]) -> [UBXFrame] {
    let gpsTime = GPSTime(time)
    let period = Int64((epochPeriodSeconds * 1e9).rounded())
    let lnav = MessageSchedule.lnav.partsEnded(before: gpsTime, periodNanoseconds: period)
    let inav = MessageSchedule.inav.partsEnded(before: gpsTime, periodNanoseconds: period)
    let d1 = MessageSchedule.d1.partsEnded(before: gpsTime, periodNanoseconds: period)
    let glonass = MessageSchedule.glonass.partStartsEnded(
      before: gpsTime, periodNanoseconds: period)
    guard !lnav.isEmpty || !inav.isEmpty || !d1.isEmpty || !glonass.isEmpty else { return [] }
    let leapSeconds = gpsTime.leapSeconds
    var frames: [UBXFrame] = []
    frames.reserveCapacity(tracked.count)
    for (channel, satellite) in tracked.enumerated()
    where satellite.snr ?? 0 >= GNSSSignal.trackingThreshold {
      let number = satellite.id
      // Each part goes straight into `frames`: no array of a satellite's parts.
      let append = { (words: [UInt32]?) in
        guard let words else { return }
        frames.append(
          UBXSubframe(
            system: UBXNavigationEncoder.system(satellite.constellation), number: number,
            signalID: satellite.constellation == .galileo ? 1 : 0,
            frequencyID: Int(UBXNavigationEncoder.frequencyID(of: satellite)),
            channel: channel, words: words
          ).frame)
      }
      switch satellite.constellation {
      case .gps:
        for start in lnav { append(gpsSubframe(of: number, at: start, leapSeconds: leapSeconds)) }
      case .galileo:
        for start in inav {
          append(galileoPagePair(of: number, at: start, leapSeconds: leapSeconds))
        }
      case .beidou:
        for start in d1 { append(beidouSubframe(of: number, at: start, leapSeconds: leapSeconds)) }
      case .glonass:
        for start in glonass {
          append(glonassString(of: number, startingAt: start / 1_000_000_000))
        }
      case .sbas: break
      }
    }
    return frames
  }

  /// The ephemeris of satellite `number` of `constellation` for the 30 s frame (subframes or
  /// I/NAV subframe) holding the part that starts at `start` (on the system's time scale):
  /// one ephemeris serves the whole frame, so that its parts carry the same issue.
  func frameEphemeris(
    of constellation: Constellation, number: Int, at start: (week: Int, secondsOfWeek: Double)
  ) -> BroadcastEphemeris? {
    guard let conventions = BroadcastConventions.of(constellation) else { return nil }
    let frameStart =
      Double(start.week) * GPSSignal.secondsPerWeek + start.secondsOfWeek
      - start.secondsOfWeek.truncatingRemainder(dividingBy: 30) + conventions.secondsBehindGPS
    return engine.ephemeris(of: constellation, number: number, atGPSSeconds: frameStart)
  }

  /// The LNAV subframe of GPS satellite `prn` that starts at `start`.
  func gpsSubframe(
    of prn: Int, at start: (week: Int, secondsOfWeek: Double), leapSeconds: Int
  ) -> [UInt32]? {
    frameEphemeris(of: .gps, number: prn, at: start).map {
      LNAVMessage(ephemeris: $0, ionosphere: engine.ionosphere, leapSeconds: leapSeconds)
        .subframe(startingAt: start.secondsOfWeek, week: start.week).words
    }
  }

  /// The I/NAV page pair (E1-B) of Galileo satellite `number` that starts at `start`.
  func galileoPagePair(
    of number: Int, at start: (week: Int, secondsOfWeek: Double), leapSeconds: Int
  ) -> [UInt32]? {
    frameEphemeris(of: .galileo, number: number, at: start).map {
      GalileoINAVMessage(ephemeris: $0, leapSeconds: leapSeconds).pagePair(
        startingAt: start.secondsOfWeek,
        week: start.week - BroadcastConventions.galileo.weekOffset)
    }
  }

  /// The D1 subframe of BeiDou satellite `number` that starts at `start` (BDT).
  func beidouSubframe(
    of number: Int, at start: (week: Int, secondsOfWeek: Double), leapSeconds: Int
  ) -> [UInt32]? {
    frameEphemeris(of: .beidou, number: number, at: start).map {
      BeiDouD1Message(ephemeris: $0, ionosphere: engine.ionosphere, leapSeconds: leapSeconds)
        .subframe(
          startingAt: start.secondsOfWeek,
          week: start.week - BroadcastConventions.beidou.weekOffset)
    }
  }
}

extension UBXRawMeasurementEncoder {
  /// The string of GLONASS satellite `slot` that starts at `moscowSeconds` (seconds since
  /// 1980-01-06 00:00 Moscow time), from the ephemeris in force at its frame's start: one
  /// serves the whole 30 s frame, and tb changes on the half hours, which are frame starts.
  func glonassString(of slot: Int, startingAt moscowSeconds: Int64) -> [UInt32]? {
    let frameStart = moscowSeconds - moscowSeconds % GLONASSNavigationMessage.frameSeconds
    let gpsSeconds = GLONASSTime.gpsSeconds(atMoscowSeconds: Double(frameStart))
    return engine.glonassEphemeris(slot: slot, atGPSSeconds: gpsSeconds).map {
      GLONASSNavigationMessage(ephemeris: $0).sfrbxWords(startingAt: moscowSeconds)
    }
  }
}
