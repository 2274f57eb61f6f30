import Simulation
import Wire

/// A time read from a packet of a log: the UTC time of day of an NMEA sentence, or the GPS time
/// of week of a UBX NAV message (`iTOW`).
///
/// A log's epochs are told apart by a change of this time, as gpsd's NMEA driver tells its
/// reporting cycles apart (`register_fractional_time` in `driver_nmea0183.c`).
struct LogTime: Hashable, Sendable {
  /// What the time counts, and where it wraps.
  enum Scale: Hashable, Sendable {
    /// UTC time of day: wraps at midnight.
    case timeOfDay
    /// GPS time of week: wraps at the end of the week.
    case timeOfWeek

    /// How long before the time wraps, in nanoseconds.
    var periodNanoseconds: Int64 {
      switch self {
      case .timeOfDay: return 86_400 * 1_000_000_000
      case .timeOfWeek: return 604_800 * 1_000_000_000
      }
    }
  }

  /// How much a packet's time is trusted to pace the log: the log is paced by the best source
  /// it has, and packets timed by a lesser source join the current epoch.
  enum Source: Int, Comparable, Sendable {
    /// UBX NAV-class frames (`iTOW`).
    case ubxTimeOfWeek
    /// ZDA and GST: gpsd leaves them out of cycle detection (a ZDA may come only with a fix,
    /// a GST tells the time of a fix before), so they pace a log only when nothing else does.
    case nmeaSecondary
    /// RMC, GGA, GLL, GNS, GBS: the sentences whose time gpsd's cycle detection watches.
    case nmeaPrimary

    static func < (lhs: Source, rhs: Source) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  var nanoseconds: Int64
  var scale: Scale
  var source: Source

  /// The time a packet carries, or nil: packets with a problem carry none (their time may be
  /// what is broken).
  static func of(_ packet: LogPacket) -> LogTime? {
    guard packet.problem == nil else { return nil }
    switch packet.kind {
    case .nmea: return NMEASentenceTimes.time(of: packet.bytes)
    case .ubx: return ubxTimeOfWeek(packet.bytes)
    default: return nil
    }
  }

  /// The `iTOW` of a UBX NAV-class frame (class 0x01), little endian, in milliseconds of the
  /// GPS week: the first four payload bytes, or bytes 4–7 in the messages that start with a
  /// version (HPPOSECEF 0x13, HPPOSLLH 0x14, SVIN 0x3B, RELPOSNED 0x3C), as gpsd's
  /// `driver_ubx.c` reads them.
  static func ubxTimeOfWeek(_ bytes: ArraySlice<UInt8>) -> LogTime? {
    bytes.withUnsafeBufferPointer { ubxTimeOfWeek($0) }
  }

  private static func ubxTimeOfWeek(_ frame: UnsafeBufferPointer<UInt8>) -> LogTime? {
    guard frame.count >= 6, frame[0] == 0xB5, frame[1] == 0x62, frame[2] == 0x01 else {
      return nil
    }
    let start = 6 + ([0x13, 0x14, 0x3B, 0x3C].contains(frame[3]) ? 4 : 0)
    let length = Int(frame[4]) | Int(frame[5]) << 8
    guard length >= start - 6 + 4, frame.count >= start + 4 else { return nil }
    let milliseconds = (0..<4).reduce(Int64(0)) { $0 | Int64(frame[start + $1]) << (8 * $1) }
    guard milliseconds < 604_800_000 else { return nil }
    return LogTime(
      nanoseconds: milliseconds * 1_000_000, scale: .timeOfWeek, source: .ubxTimeOfWeek)
  }

  /// GPS weeks from 1980 to 2200, as dates elsewhere: a frame's nonsense is no time to move to.
  static let plausibleWeeks = 1...11_479

  /// The GPS week (whole weeks since 1980-01-06, not modulo 1024) a UBX frame says it is of,
  /// when it says so validly: NAV-SOL (`week` with `WKNSET`), NAV-TIMEGPS (`week` with
  /// `weekValid`), or NAV-PVT (its UTC date and time with `validDate` and `validTime`, as GPS
  /// time); nil for a week outside 1980–2200. Only frames with an `iTOW` of their own: the week
  /// of RXM-RAWX (which has none) would be paired with another frame's time of week.
  static func ubxWeek(_ bytes: ArraySlice<UInt8>) -> Int? {
    bytes.withUnsafeBufferPointer { ubxWeek($0) }
  }

  private static func ubxWeek(_ frame: UnsafeBufferPointer<UInt8>) -> Int? {
    guard frame.count >= 8, frame[0] == 0xB5, frame[1] == 0x62 else { return nil }
    let length = Int(frame[4]) | Int(frame[5]) << 8
    guard frame.count >= 6 + length else { return nil }
    func byte(_ offset: Int) -> Int { Int(frame[6 + offset]) }
    func u2(_ offset: Int) -> Int { byte(offset) | byte(offset + 1) << 8 }
    let week: Int
    switch (frame[2], frame[3]) {
    case (0x01, 0x06) where length >= 12 && byte(11) & 0x04 != 0,
      (0x01, 0x20) where length >= 12 && byte(11) & 0x02 != 0:
      week = Int(Int16(truncatingIfNeeded: u2(8)))
    case (0x01, 0x07) where length >= 12 && byte(11) & 0x03 == 0x03:
      let (month, day) = (byte(6), byte(7))
      guard (1980...2200).contains(u2(4)), (1...12).contains(month), (1...31).contains(day),
        byte(8) < 24, byte(9) < 60, byte(10) < 61
      else { return nil }
      let days = Int64(CivilDate.daysSinceEpoch(year: u2(4), month: month, day: day))
      let seconds = days * 86_400 + Int64(byte(8) * 3_600 + byte(9) * 60 + byte(10))
      // The week that puts the frame's iTOW nearest its date and time (whole seconds, `nano`
      // left out: in a week's last second the date alone may say the next week).
      let gps = GPSTime(UTCInstant(nanosecondsSinceEpoch: seconds * 1_000_000_000))
      let milliseconds = (0..<4).reduce(Int64(0)) { $0 | Int64(byte($1)) << (8 * $1) }
      let weekMilliseconds: Int64 = 604_800_000
      let fromDate = Int64(gps.week) * weekMilliseconds + gps.nanosecondsOfWeek / 1_000_000
      week = Int(((Double(fromDate - milliseconds) / Double(weekMilliseconds))).rounded())
    default:
      return nil
    }
    return plausibleWeeks.contains(week) ? week : nil
  }
}
