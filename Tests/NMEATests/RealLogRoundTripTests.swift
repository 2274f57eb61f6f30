import Foundation
import NMEA
import TestFixtures
import Testing

/// Every NMEA line of gpsd's regression logs (`test/daemon/*.log` of the installed gpsd's source,
/// NMEA and binary receivers alike) either re-encodes to the identical line or is one of the
/// listed exceptions. The decoded types (GGA, RMC, GSA, GSV, VTG, GLL, ZDA) re-encode from their
/// fields, every other type as a raw sentence. The NMEA lines are `Fixtures.nmeaLines(of:)`: a
/// binary frame that happens to start a line with `$` is not one.
@Suite struct RealLogRoundTripTests {
  /// The number of logs in gpsd 3.22's `test/daemon`: fewer means a corpus cut short.
  static let expectedLogCount = 154

  /// The outcome for every NMEA line in the logs.
  struct Outcome {
    var logs = 0
    var lines = 0
    var identical = 0
    /// Lines whose only difference is the case of the checksum digits.
    var lowercaseChecksums: [String] = []
    /// Lines sent without a checksum, which are re-encoded with one.
    var withoutChecksum: [String] = []
    /// `file:line: error` for every line that was rejected.
    var rejected: [String] = []
    var otherDifferences: [String] = []
  }

  static func scanLogs() throws -> Outcome {
    var outcome = Outcome()
    let logs = try Fixtures.gpsdLogs()
    outcome.logs = logs.count
    for url in logs {
      for (number, text) in try Fixtures.nmeaLines(of: url) {
        outcome.lines += 1
        let place = "\(url.lastPathComponent):\(number)"
        do {
          let again = try NMEAMessage(parsing: text, requireChecksum: false).raw.description
          if again == text {
            outcome.identical += 1
          } else if again == Self.uppercasingChecksum(text) {
            outcome.lowercaseChecksums.append(place)
          } else if !text.contains("*"), again.hasPrefix(text + "*") {
            outcome.withoutChecksum.append(place)
          } else {
            outcome.otherDifferences.append("\(place): \(text) -> \(again)")
          }
        } catch {
          outcome.rejected.append("\(place): \(error)")
        }
      }
    }
    return outcome
  }

  static func uppercasingChecksum(_ line: String) -> String {
    guard let star = line.lastIndex(of: "*") else { return line }
    return line[...star] + line[line.index(after: star)...].uppercased()
  }

  @Test func everyLineReencodesIdenticallyOrIsAListedException() throws {
    let outcome = try Self.scanLogs()
    print(
      "round trip: \(outcome.logs) logs, \(outcome.lines) NMEA lines, \(outcome.identical) "
        + "identical, \(outcome.lowercaseChecksums.count) lowercase checksums, "
        + "\(outcome.withoutChecksum.count) without checksum, \(outcome.rejected.count) rejected")
    #expect(outcome.logs == Self.expectedLogCount)
    let expectedRejections = try String(
      contentsOf: Fixtures.repositoryRoot.appendingPathComponent(
        "Tests/NMEATests/Fixtures/rejected-lines.txt"),
      encoding: .utf8
    ).split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }

    #expect(outcome.otherDifferences == [])
    #expect(outcome.rejected == expectedRejections)
    // NMEA requires uppercase hex; one Magellan receiver writes lowercase, which is re-encoded
    // in uppercase.
    #expect(outcome.lowercaseChecksums.allSatisfy { $0.hasPrefix("magellan-ec10.log:") })
    // The HP 58534A sends no checksums; NMEA 2.0 and later require them, so they are added.
    #expect(outcome.withoutChecksum.allSatisfy { $0.hasPrefix("hp58534a.log:") })
    #expect(outcome.identical > 27_000)
  }
}
