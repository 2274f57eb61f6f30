import InputFiles
import Testing

@Suite struct InputDiagnosticTests {
  @Test(arguments: [
    (InputLocation(file: "a.gpx", line: 12), "a.gpx:12: bad"),
    (InputLocation(file: "a.gpx", line: 12, column: 7), "a.gpx:12:7: bad"),
    (InputLocation(file: "s.json", jsonPath: "timeline[2].do"), "s.json: timeline[2].do: bad"),
    (InputLocation(file: "s.json", jsonPath: ""), "s.json: (top level): bad"),
  ])
  func aDiagnosticNamesItsPlace(location: InputLocation, expected: String) {
    #expect(InputDiagnostic(location, "bad").description == expected)
  }

  @Test func missingFilesAndBadDataExitAsSysexitsSays() {
    #expect(InputFileError.unreadable(path: "x", reason: "missing").exitCode == 66)
    #expect(InputFileError.invalid([]).exitCode == 65)
  }
}
