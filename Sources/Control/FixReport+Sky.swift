import Receiver
import Simulation

extension FixReport {
  /// The `sky` field of a `subscribe` line: every satellite in view that the device's GSV can
  /// list, as it lists it: `{"prn":…,"gnss":"GP","system":"gps","az":…,"el":…,"snr":…|null,
  /// "used":…}`, `prn` the number of its GSV (SBAS 33–64, GLONASS 65–88), `gnss` its GSV's
  /// talker.
  public static func sky(of fix: Fix, dialect: NMEADialect) -> ControlReply.Value {
    .array(
      fix.satellites.compactMap { satellite in
        guard let listing = dialect.gsvListing(satellite) else { return nil }
        return .object([
          ("prn", .integer(Int64(listing.number))),
          ("gnss", .string(listing.talker)),
          ("system", .string(satellite.constellation.rawValue)),
          ("az", .number(satellite.azimuth, digits: 1)),
          ("el", .number(satellite.elevation, digits: 1)),
          ("snr", satellite.snr.map { .integer(Int64($0)) } ?? .null),
          ("used", .bool(satellite.isUsed && fix.mode != .noFix)),
        ])
      })
  }

  /// The `late_ms` field: how late the epoch started against its schedule, 0.1 ms digits.
  public static func lateness(nanoseconds: Int64) -> ControlReply.Value {
    .number(Double(max(0, nanoseconds)) / 1_000_000, digits: 1)
  }
}
