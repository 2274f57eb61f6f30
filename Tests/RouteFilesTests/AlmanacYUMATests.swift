import Foundation
import RouteFiles
import Simulation
import TestFixtures
import Testing

/// The real NAVCEN almanac of week 149 read by `AlmanacFile`, checked against its own text
/// split here independently.
@Suite struct AlmanacYUMATests {
  static let path = Fixtures.almanacDirectory
    .appendingPathComponent("almanac.yuma.week0149.405504.txt").path

  /// The file's blocks as `label → text` dictionaries, split on the first colon of each line.
  static func blocksOfTheText() throws -> [[String: String]] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var blocks: [[String: String]] = []
    for line in text.split(separator: "\n") {
      if line.hasPrefix("****") {
        blocks.append([:])
      } else if let colon = line.firstIndex(of: ":") {
        let label = line[..<colon].trimmingCharacters(in: .whitespaces)
        blocks[blocks.count - 1][label] = line[line.index(after: colon)...]
          .trimmingCharacters(in: .whitespaces)
      }
    }
    return blocks
  }

  @Test func readsAll31SatellitesWithPRN11UnhealthyAndPRN28Missing() throws {
    let almanac = try AlmanacFile.load(path: Self.path)
    #expect(almanac.count == 31)
    #expect(Set(almanac.map(\.prn)) == Set(1...32).subtracting([28]))
    #expect(almanac.filter { !$0.isHealthy }.map(\.prn) == [11])
    #expect(almanac.first { $0.prn == 11 }?.health == 63)
    #expect(almanac.allSatisfy { $0.week == 149 && $0.timeOfApplicabilitySeconds == 405_504 })
    #expect(almanac.allSatisfy { $0.constellation == .gps })
  }

  @Test func everyEntryEqualsTheNumbersOfItsBlock() throws {
    let almanac = try AlmanacFile.load(path: Self.path)
    let blocks = try Self.blocksOfTheText()
    try #require(blocks.count == almanac.count)
    for (entry, block) in zip(almanac, blocks) {
      func number(_ label: String) -> Double? { block[label].flatMap(Double.init) }
      #expect(Double(entry.prn) == number("ID"))
      #expect(Double(entry.health) == number("Health"))
      #expect(entry.eccentricity == number("Eccentricity"))
      #expect(entry.timeOfApplicabilitySeconds == number("Time of Applicability(s)"))
      #expect(entry.inclinationRadians == number("Orbital Inclination(rad)"))
      #expect(entry.rateOfRightAscensionRadiansPerSecond == number("Rate of Right Ascen(r/s)"))
      #expect(entry.squareRootOfSemiMajorAxis == number("SQRT(A)  (m 1/2)"))
      #expect(entry.rightAscensionAtWeekRadians == number("Right Ascen at Week(rad)"))
      #expect(entry.argumentOfPerigeeRadians == number("Argument of Perigee(rad)"))
      #expect(entry.meanAnomalyRadians == number("Mean Anom(rad)"))
      #expect(entry.clockBiasSeconds == number("Af0(s)"))
      #expect(entry.clockDriftSecondsPerSecond == number("Af1(s/s)"))
      #expect(Double(entry.week) == number("week"))
    }
  }

  /// PRN 1, written out from the file by hand: the values are SI as YUMA gives them.
  @Test func prn1HasTheValuesPrintedInTheFile() throws {
    let prn1 = try #require(try AlmanacFile.load(path: Self.path).first)
    #expect(prn1.prn == 1 && prn1.health == 0)
    #expect(prn1.eccentricity == 0.011_392_116_55)
    #expect(prn1.inclinationRadians == 0.986_735_538_7)
    #expect(prn1.rateOfRightAscensionRadiansPerSecond == -0.788_604_277_1e-8)
    #expect(prn1.squareRootOfSemiMajorAxis == 5153.623047)
    #expect(prn1.rightAscensionAtWeekRadians == -1.912_602_899)
    #expect(prn1.argumentOfPerigeeRadians == 0.881_498_914)
    #expect(prn1.meanAnomalyRadians == -2.769_097_477)
    #expect(prn1.clockBiasSeconds == 0.429_153_442_4e-3)
    #expect(prn1.clockDriftSecondsPerSecond == -0.109_139_364_2e-10)
  }

  @Test func isRecognisedByItsContent() throws {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.path))
    #expect(ScriptFileKind.detect(prefix: bytes) == .almanac)
    #expect(ScriptFileKind.detect(path: Self.path) == .almanac)
    #expect(ScriptFileKind.detect(prefix: Array("lat,lon\n1,2\n".utf8)) == .route)
    #expect(try AlmanacFile.parse(bytes: bytes, name: "a.txt") == AlmanacFile.load(path: Self.path))
  }

  @Test func crlfLineEndsAndBlankLinesAreRead() throws {
    let text = try String(contentsOfFile: Self.path, encoding: .utf8)
      .replacingOccurrences(of: "\n", with: "\r\n\r\n")
    #expect(try AlmanacFile.parse(bytes: Array(text.utf8), name: "a.txt").count == 31)
  }
}
