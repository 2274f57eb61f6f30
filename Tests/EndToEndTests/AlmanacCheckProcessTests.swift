import Foundation
import MockGPSTestSupport
import TestFixtures
import Testing

/// `mockgps check` on YUMA almanacs, as a process.
@Suite(.blocking, .serialized) struct AlmanacCheckProcessTests {
  @Test func checkSummarisesTheRealAlmanacAndExitsZero() throws {
    let file = Fixtures.almanacDirectory
      .appendingPathComponent("almanac.yuma.week0149.405504.txt").path
    let (status, output, errors) = try MockGPSBinary.run(["check", file])
    #expect(status == 0, "\(errors)")
    #expect(
      output
        == "\(file): YUMA almanac, 31 satellites, week 149 (mod 1024), toa 405504 s,"
        + " unhealthy PRNs 11\n")
    #expect(errors == "")
  }

  @Test func checkOfABadAlmanacExits65WithEveryError() throws {
    let directory = try ScratchDirectory("almanac-check")
    defer { directory.remove() }
    let file = directory.path + "/almanac.txt"
    let text = try String(
      contentsOf: Fixtures.almanacDirectory.appendingPathComponent(
        "almanac.yuma.week0149.405504.txt"), encoding: .utf8
    )
    .replacingOccurrences(of: "0.1139211655E-001", with: "x")
    .replacingOccurrences(
      of: "ID:                         02", with: "ID:                         99")
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    let (status, output, errors) = try MockGPSBinary.run(["check", file])
    #expect(status == 65)
    #expect(output == "")
    #expect(
      errors == """
        \(file):4: 'Eccentricity' must be a number from 0 to 1, found 'x'
        \(file):17: 'ID' must be a whole number from 1 to 32 (a GPS PRN), found '99'

        """)
  }
}
