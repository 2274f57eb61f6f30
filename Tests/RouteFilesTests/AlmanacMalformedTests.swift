import Foundation
import InputFiles
import RouteFiles
import Simulation
import TestFixtures
import Testing

/// Bad YUMA almanacs: every problem is reported with its line and field, nothing traps.
@Suite struct AlmanacMalformedTests {
  /// The fields of PRN 1 of the week-149 almanac, in the file's order and spelling.
  static let fields: [(label: String, value: String)] = [
    ("ID", "01"), ("Health", "000"), ("Eccentricity", "0.1139211655E-001"),
    ("Time of Applicability(s)", "405504.0000"), ("Orbital Inclination(rad)", "0.9867355387"),
    ("Rate of Right Ascen(r/s)", "-0.7886042771E-008"), ("SQRT(A)  (m 1/2)", "5153.623047"),
    ("Right Ascen at Week(rad)", "-0.1912602899E+001"), ("Argument of Perigee(rad)", "0.881498914"),
    ("Mean Anom(rad)", "-0.2769097477E+001"), ("Af0(s)", "0.4291534424E-003"),
    ("Af1(s/s)", "-0.1091393642E-010"), ("week", "149"),
  ]

  /// One block of 15 lines (heading, 13 fields, blank) for `prn`, with some values replaced and
  /// some labels left out.
  static func block(
    prn: Int, replacing replaced: [String: String] = [:], omitting omitted: Set<String> = []
  ) -> String {
    let number = prn < 10 ? "0\(prn)" : "\(prn)"
    var lines = ["******** Week 149 almanac for PRN-\(number) ********"]
    for (label, value) in fields where !omitted.contains(label) {
      let text = label == "ID" ? number : value
      lines.append(
        "\(label):".padding(toLength: 28, withPad: " ", startingAt: 0) + (replaced[label] ?? text))
    }
    return lines.joined(separator: "\n") + "\n\n"
  }

  /// The diagnostics of parsing `text`, as lines.
  static func errors(_ text: String) -> [String] {
    do {
      let entries = try AlmanacFile.parse(bytes: Array(text.utf8), name: "a.txt")
      Issue.record("expected an error, got \(entries.count) entries")
      return []
    } catch {
      guard case .invalid(let diagnostics) = error else {
        Issue.record("expected .invalid, got \(error)")
        return []
      }
      return diagnostics.map(\.description)
    }
  }

  @Test func twoGoodBlocksAreRead() throws {
    let text = Self.block(prn: 1) + Self.block(prn: 2)
    #expect(try AlmanacFile.parse(bytes: Array(text.utf8), name: "a.txt").map(\.prn) == [1, 2])
  }

  @Test func aValueThatIsNoNumberNamesItsLineAndField() {
    #expect(
      Self.errors(Self.block(prn: 1, replacing: ["Eccentricity": "x"])) == [
        "a.txt:4: 'Eccentricity' must be a number from 0 to 1, found 'x'"
      ])
  }

  @Test(arguments: [
    ("ID", "33", 2, "'ID' must be a whole number from 1 to 32 (a GPS PRN), found '33'"),
    ("ID", "0", 2, "'ID' must be a whole number from 1 to 32 (a GPS PRN), found '0'"),
    (
      "Mean Anom(rad)", "nan", 11,
      "'Mean Anom(rad)' must be an angle in radians from -2π to 2π, found 'nan'"
    ),
    ("Af0(s)", "inf", 12, "'Af0(s)' must be seconds from -1 to 1, found 'inf'"),
    (
      "SQRT(A)  (m 1/2)", "1e999", 8,
      "'SQRT(A)' must be a number from 1000 to 10000 (√m), found '1e999'"
    ),
    ("Eccentricity", "1.5", 4, "'Eccentricity' must be a number from 0 to 1, found '1.5'"),
    ("Health", "2.5", 3, "'Health' must be a whole number from 0 to 255, found '2.5'"),
    (
      "week", "1024", 14,
      "'week' must be a whole number from 0 to 1023 (the week modulo 1024), found '1024'"
    ),
    (
      "Orbital Inclination(rad)", "", 6,
      "'Orbital Inclination(rad)' must be an angle in radians from 0 to π, found ''"
    ),
  ])
  func aValueOutOfRangeOrNotFiniteIsRefused(
    label: String, value: String, line: Int, message: String
  ) {
    let prn = label == "ID" ? Int(value) ?? 1 : 1
    #expect(
      Self.errors(Self.block(prn: prn, replacing: [label: value])) == ["a.txt:\(line): \(message)"])
  }

  @Test func aMissingFieldIsReportedAtTheBlocksEnd() {
    #expect(
      Self.errors(Self.block(prn: 1, omitting: ["Af0(s)"]) + Self.block(prn: 2)) == [
        "a.txt:13: the block for PRN-1 begun at line 1 is cut short: missing 'Af0(s)'"
      ])
  }

  @Test func aBlockCutShortByTheEndOfTheFileNamesEveryMissingField() {
    let text = Self.block(prn: 2).split(separator: "\n").prefix(5).joined(separator: "\n")
    #expect(
      Self.errors(text) == [
        "a.txt:5: the block for PRN-2 begun at line 1 is cut short: missing"
          + " 'Orbital Inclination(rad)', 'Rate of Right Ascen(r/s)', 'SQRT(A)',"
          + " 'Right Ascen at Week(rad)', 'Argument of Perigee(rad)', 'Mean Anom(rad)', 'Af0(s)',"
          + " 'Af1(s/s)', 'week'"
      ])
  }

  @Test func aDuplicatedPRNNamesTheFirstBlock() {
    #expect(
      Self.errors(Self.block(prn: 5) + Self.block(prn: 5)) == [
        "a.txt:17: PRN 5 given twice: its first block begins at line 1"
      ])
  }

  @Test func aFieldGivenTwiceInOneBlockIsRefused() {
    let text = Self.block(prn: 1).replacingOccurrences(
      of: "Eccentricity:", with: "Health:       000\nEccentricity:")
    #expect(Self.errors(text) == ["a.txt:4: 'Health' given twice in one block, first at line 3"])
  }

  @Test func anIDThatDisagreesWithTheHeadingIsRefused() {
    let text = Self.block(prn: 1).replacingOccurrences(of: "PRN-01", with: "PRN-07")
    #expect(Self.errors(text) == ["a.txt:2: 'ID' is 1 but the block's heading names PRN-7"])
  }

  @Test func anUnknownLabelOrALineWithoutAColonIsRefused() {
    let text = Self.block(prn: 1).replacingOccurrences(of: "week:", with: "weak:")
      .replacingOccurrences(of: "Af1(s/s):", with: "Af1(s/s)")
    let found = Self.errors(text)
    #expect(found.count == 3, "\(found)")
    #expect(found.first?.hasPrefix("a.txt:13: expected 'Label: value', found 'Af1(s/s)") == true)
    #expect(
      found.dropFirst().first?.hasPrefix("a.txt:14: unknown field 'weak'; expected one of 'ID',")
        == true)
    #expect(
      found.last?.hasPrefix("a.txt:14: the block for PRN-1 begun at line 1 is cut short") == true)
  }

  @Test func textBeforeAnyHeadingIsRefused() {
    #expect(
      Self.errors("hello\n" + Self.block(prn: 1)) == [
        "a.txt:1: expected a heading such as '******** Week 149 almanac for PRN-01 ********',"
          + " found 'hello'"
      ])
  }

  @Test(arguments: ["", "\n \n\t\n"])
  func anEmptyFileHasNoSatellites(text: String) {
    #expect(
      Self.errors(text) == ["a.txt: no satellites: the file is empty; expected a YUMA almanac"])
  }

  @Test func everyErrorIsReportedInFileOrder() {
    let text =
      Self.block(prn: 1, replacing: ["Eccentricity": "x", "week": "-1"]) + Self.block(prn: 40)
      + Self.block(prn: 3, omitting: ["ID"])
    let lines = Self.errors(text).map { $0.split(separator: ":").prefix(2).joined(separator: ":") }
    #expect(lines == ["a.txt:4", "a.txt:14", "a.txt:17", "a.txt:43"])
  }

  @Test func reportingStopsAtTheLimit() {
    let text = Self.block(prn: 1) + String(repeating: "nonsense\n", count: 1000)
    #expect(Self.errors(text).count == InputFileError.diagnosticLimit)
  }

  @Test func aFileLargerThanTheLimitIsRefusedWhole() {
    let text = Self.block(prn: 1) + String(repeating: " ", count: AlmanacFile.maximumFileSize)
    let found = Self.errors(text)
    #expect(found.count == 1 && found[0].hasPrefix("a.txt: almanac file of 1049"), "\(found)")
  }

  /// Random bytes, and the real file with bytes changed at random, never trap; whatever is
  /// refused is refused with one-line diagnostics naming the file.
  @Test func randomBytesAndMutationsNeverTrap() throws {
    let real = try Array(
      Data(
        contentsOf: Fixtures.almanacDirectory.appendingPathComponent(
          "almanac.yuma.week0149.405504.txt")))
    var random = FaultRandomNumberGenerator(seed: 149)
    let alphabet = Array("0123456789.-+eE:* \n\tPRNIDnaif".utf8) + [0, 0xFF, 0x0D]
    for round in 0..<400 {
      var bytes: [UInt8]
      if round % 2 == 0 {
        bytes = (0..<Int.random(in: 0...600, using: &random)).map { _ in
          alphabet.randomElement(using: &random) ?? 0
        }
      } else {
        bytes = real
        for _ in 0..<Int.random(in: 1...20, using: &random) {
          let at = Int.random(in: 0..<bytes.count, using: &random)
          bytes[at] = alphabet.randomElement(using: &random) ?? 0
        }
      }
      do {
        let entries = try AlmanacFile.parse(bytes: bytes, name: "r.txt")
        #expect(!entries.isEmpty && entries.count <= 32)
      } catch {
        guard case .invalid(let diagnostics) = error else {
          Issue.record("round \(round): \(error)")
          continue
        }
        #expect(!diagnostics.isEmpty && diagnostics.count <= InputFileError.diagnosticLimit)
        #expect(
          diagnostics.allSatisfy {
            $0.description.hasPrefix("r.txt") && !$0.description.contains("\n")
          })
      }
    }
  }
}
