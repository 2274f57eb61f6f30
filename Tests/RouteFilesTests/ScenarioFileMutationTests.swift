import Foundation
import Receiver
import RouteFiles
import Simulation
import TestFixtures
import Testing

/// The tunnel example broken in thousands of seeded ways: the reader never traps, refuses with
/// one-line diagnostics naming the file, and what it accepts plays.
@Suite struct ScenarioFileMutationTests {
  static let alphabet = Array(#"{}[]:,"-.0123456789eE+ \n\tatrufnl\u"#.utf8)

  static func mutated(_ bytes: [UInt8], _ generator: inout SplitMix64) -> [UInt8] {
    var bytes = bytes
    for _ in 0..<(1 + Int(generator.next() % 3)) where !bytes.isEmpty {
      let index = Int(generator.next() % UInt64(bytes.count))
      switch generator.next() % 4 {
      case 0: bytes.remove(at: index)
      case 1: bytes.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: index)
      case 2: bytes[index] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
      default: bytes = Array(bytes[..<index])
      }
    }
    return bytes
  }

  @Test func mutatedFilesAreRefusedCleanlyOrPlay() throws {
    let url = Fixtures.repositoryFixturesDirectory.appendingPathComponent("scenarios/tunnel.json")
    let original = Array(try Data(contentsOf: url))
    var generator = SplitMix64(seed: 2024)
    var accepted = 0
    var refused = 0
    for _ in 0..<1500 {
      let bytes = Self.mutated(original, &generator)
      do {
        let scenario = try ScenarioFile.parse(bytes: bytes, name: "m.json", baseDirectory: "/tmp")
        let compiled = scenario.compiled()
        let source = SceneSource(compiled)
        _ = source.epoch(at: scenario.startTime)
        accepted += 1
      } catch {
        guard case .invalid(let diagnostics) = error else {
          Issue.record("unexpected \(error)")
          continue
        }
        refused += 1
        #expect(!diagnostics.isEmpty)
        for diagnostic in diagnostics {
          #expect(diagnostic.description.hasPrefix("m.json:"))
          #expect(!diagnostic.description.contains { $0.isNewline })
        }
      }
    }
    #expect(accepted > 50 && refused > 500, "accepted \(accepted), refused \(refused)")
  }
}
