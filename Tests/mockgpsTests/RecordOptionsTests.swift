import Testing

@testable import mockgps

/// `record`'s arguments, read by the scanner `run` reads its own with: the same spellings
/// (`--out=F`, `--out F`) and the same words for the same mistakes.
@Suite struct RecordOptionsTests {
  @Test func aDeviceAnOutputAndABaudInAnyOrder() throws {
    let expected = RecordOptions(
      devicePath: "/dev/ttyUSB0", outputPath: "g.rec", baud: 9600, overwrite: true)
    #expect(
      try RecordOptions.parse(["/dev/ttyUSB0", "--out", "g.rec", "--baud", "9600", "--force"])
        == expected)
    #expect(
      try RecordOptions.parse(["--force", "--baud=9600", "--out=g.rec", "/dev/ttyUSB0"])
        == expected)
    #expect(try RecordOptions.parse(["-", "--out", "o"]).devicePath == "-")
  }

  static let refusals: [(arguments: [String], message: String)] = [
    (["d", "--out", "o", "--out", "p"], "option '--out' given more than once"),
    (["d", "--out", "o", "--force", "--force"], "option '--force' given more than once"),
    (["d", "--out", "o", "--force=yes"], "option '--force' takes no value"),
    (["d", "--out"], "missing value for '--out' (expected a path for the recording)"),
    (["d", "--out", "--force"], "missing value for '--out' (expected a path for the recording)"),
    (["d", "e", "--out", "o"], "unexpected argument 'e' for 'record'"),
    (
      ["d", "--out", "o", "--rate", "1"],
      "unknown option '--rate' for 'record' (expected one of --out, --baud, --force, --help)"
    ),
    (["d", "--out", "o/"], "invalid value 'o/' for '--out': expected a path for the recording"),
    (["--out", "o"], "missing device for 'record' (expected a serial port or PTY)"),
  ]

  @Test func mistakesAreWordedAsRunWordsThem() {
    for refusal in Self.refusals {
      #expect(throws: UsageError.self, "\(refusal.arguments)") {
        try RecordOptions.parse(refusal.arguments)
      }
      do {
        _ = try RecordOptions.parse(refusal.arguments)
      } catch {
        #expect(error.message == refusal.message, "\(refusal.arguments)")
      }
    }
  }

  /// A baud is a whole number as `NumberSpelling` spells it: no sign, no leading zero.
  @Test(arguments: ["+9600", "09600", "9600.5", "0x2580", " 9600"])
  func aBaudIsSpelledAsEveryNumber(_ text: String) {
    #expect(throws: UsageError.self) {
      try RecordOptions.parse(["d", "--out", "o", "--baud", text])
    }
  }

  /// A whole number is whole in any spelling of the grammar, as a JSON field's value is.
  @Test(arguments: ["9600", "9.6e3", "9600.0"])
  func aWholeBaudIsTakenInAnySpelling(_ text: String) throws {
    #expect(try RecordOptions.parse(["d", "--out", "o", "--baud", text]).baud == 9600)
  }
}
