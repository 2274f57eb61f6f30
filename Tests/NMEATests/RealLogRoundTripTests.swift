import Foundation
import MockGPSTestSupport
import NMEA
import Testing

/// Every GGA, RMC, GSA, GSV, VTG, GLL and ZDA line of gpsd's 59 real receiver logs either
/// re-encodes to the identical line or is one of the listed exceptions.
@Suite struct RealLogRoundTripTests {
  /// The outcome for every line of one of the seven types in the logs.
  struct Outcome {
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
    for url in try Fixtures.gpsdLogs() {
      for (number, text) in try Fixtures.lines(of: url) {
        guard text.hasPrefix("$"), text.utf8.count > 6 else { continue }
        let type = String(text.dropFirst(3).prefix(3))
        guard NMEAMessage.decodedTypes.contains(type) else { continue }
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
    #expect(outcome.identical > 12_000)
  }
}
