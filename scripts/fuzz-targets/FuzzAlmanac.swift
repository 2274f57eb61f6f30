import InputFiles
import RouteFiles
import Simulation

/// The `almanac` target: `AlmanacFile.parse` on the bytes. A file it refuses must be refused
/// with one-line diagnostics that name the file, no more than the limit; a file it accepts
/// gives 1 to 32 satellites with distinct PRNs from 1 to 32 and finite values, and parses the
/// same twice.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  let name = "fuzz.txt"
  let almanac: [AlmanacEntry]
  do {
    almanac = try AlmanacFile.parse(bytes: Array(bytes), name: name)
  } catch {
    guard case .invalid(let diagnostics) = error else {
      failure("parsing bytes gave \(error), expected .invalid")
    }
    guard !diagnostics.isEmpty, diagnostics.count <= InputFileError.diagnosticLimit else {
      failure("\(diagnostics.count) diagnostics")
    }
    for diagnostic in diagnostics {
      let text = diagnostic.description
      guard text.hasPrefix(name), !diagnostic.message.isEmpty,
        !text.contains(where: \.isNewline)
      else {
        failure("diagnostic is not one line naming the file: \(text.debugDescription)")
      }
    }
    return
  }
  let prns = almanac.map(\.prn)
  guard (1...32).contains(almanac.count), Set(prns).count == prns.count,
    prns.allSatisfy((1...32).contains)
  else { failure("accepted PRNs \(prns)") }
  for entry in almanac {
    let values = [
      entry.eccentricity, entry.timeOfApplicabilitySeconds, entry.inclinationRadians,
      entry.rateOfRightAscensionRadiansPerSecond, entry.squareRootOfSemiMajorAxis,
      entry.rightAscensionAtWeekRadians, entry.argumentOfPerigeeRadians,
      entry.meanAnomalyRadians, entry.clockBiasSeconds, entry.clockDriftSecondsPerSecond,
    ]
    guard values.allSatisfy(\.isFinite), (0...1023).contains(entry.week) else {
      failure("accepted \(entry)")
    }
  }
  guard (try? AlmanacFile.parse(bytes: Array(bytes), name: name)) == almanac else {
    failure("the same bytes parsed differently")
  }
}

let builtInSeeds: [[UInt8]] = [
  """
  ******** Week 149 almanac for PRN-01 ********
  ID:                         01
  Health:                     000
  Eccentricity:               0.1139211655E-001
  Time of Applicability(s):  405504.0000
  Orbital Inclination(rad):   0.9867355387
  Rate of Right Ascen(r/s):  -0.7886042771E-008
  SQRT(A)  (m 1/2):           5153.623047
  Right Ascen at Week(rad):  -0.1912602899E+001
  Argument of Perigee(rad):   0.881498914
  Mean Anom(rad):            -0.2769097477E+001
  Af0(s):                     0.4291534424E-003
  Af1(s/s):                  -0.1091393642E-010
  week:                        149

  """,
  "******** Week 1 almanac for PRN-7 ********\r\nID: 7\r\nweek: 1024\r\nHealth: 063\r\n",
  "ID: 1\n",
].map { Array($0.utf8) }
