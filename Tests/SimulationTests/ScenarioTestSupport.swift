import Geodesy
import Receiver
import Simulation

/// Runs small scenarios through the real encoder and wire faults, as the epoch loop does.
enum ScenarioRun {
  static let start = UTCInstant(year: 2024, month: 7, day: 1, hour: 12)
  static let position = GeodeticPosition(known: 46.05, 14.5, altitudeMeters: 300)

  /// The instant `seconds` after the start.
  static func time(_ seconds: Double) -> UTCInstant {
    start.adding(nanoseconds: Int64((seconds * 1e9).rounded()))
  }

  /// A scenario of events `(at seconds, action, for seconds)`, holding at `position`.
  static func scenario(
    _ events: [(at: Double, action: Scenario.Action, duration: Double?)], seed: UInt64 = 1
  ) -> Scenario {
    Scenario(
      startTime: start, startPosition: position, seed: seed,
      timeline: events.map { event in
        Scenario.Event(
          at: time(event.at), event.action,
          durationNanoseconds: event.duration.map { Int64(($0 * 1e9).rounded()) })
      })
  }

  /// The epoch source of a scenario.
  static func source(_ scenario: Scenario) -> SceneSource {
    let compiled = scenario.compiled()
    return SceneSource(compiled)
  }

  /// The bytes of the epoch `seconds` after the start.
  static func bytes(_ source: SceneSource, at seconds: Double) -> [UInt8] {
    source.epoch(at: time(seconds)).bytes
  }

  /// The lines of an epoch without CR LF.
  static func lines(_ bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").map(String.init)
  }

  /// The fields of the first sentence of a type (`"GGA"`), after the address and before the
  /// checksum: `fields("GGA")[5]` is the quality.
  static func fields(_ type: String, in bytes: [UInt8]) -> [String] {
    guard let line = lines(bytes).first(where: { $0.dropFirst(3).hasPrefix(type) }) else {
      return []
    }
    let body = line.split(separator: "*", omittingEmptySubsequences: false)[0]
    return body.split(separator: ",", omittingEmptySubsequences: false).dropFirst().map(
      String.init)
  }

  /// True when a line ends in `*hh` and hh is the XOR of the bytes between `$` and `*`.
  static func hasValidChecksum(_ line: String) -> Bool {
    let bytes = Array(line.utf8)
    guard bytes.count > 4, bytes[bytes.count - 3] == UInt8(ascii: "*") else { return false }
    let checksum = bytes[1..<(bytes.count - 3)].reduce(0, ^)
    let hex = String(checksum, radix: 16, uppercase: true)
    return String(decoding: bytes.suffix(2), as: UTF8.self) == (hex.count == 1 ? "0" + hex : hex)
  }
}

extension ScenarioRun {
  /// The position GGA reports, read back from its ddmm.mmmmm fields.
  static func ggaPosition(in bytes: [UInt8]) -> GeodeticPosition? {
    let gga = fields("GGA", in: bytes)
    guard gga.count > 8, let latitude = degrees(gga[1], degreeDigits: 2),
      let longitude = degrees(gga[3], degreeDigits: 3), let altitude = Double(gga[8])
    else { return nil }
    return try? GeodeticPosition(
      latitude: gga[2] == "S" ? -latitude : latitude,
      longitude: gga[4] == "W" ? -longitude : longitude, altitudeMeters: altitude)
  }

  static func degrees(_ text: String, degreeDigits: Int) -> Double? {
    guard let whole = Double(text.prefix(degreeDigits)),
      let minutes = Double(text.dropFirst(degreeDigits))
    else { return nil }
    return whole + minutes / 60
  }
}
