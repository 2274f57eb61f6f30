import InputFiles
import Receiver

/// The options of `mockgps record`, validated.
struct RecordOptions: Equatable {
  /// The terminal to record: a serial port or a PTY such as mockgps's link.
  var devicePath = ""
  /// The recording to create.
  var outputPath = ""
  /// The speed to set; nil leaves the terminal at the speed it has.
  var baud: Int?
  /// Replace an existing output file (`--force`).
  var overwrite = false

  /// Every option of `record`, in the order the help shows them.
  static let allOptions = ["--out", "--baud", "--force", "--help"]

  /// The bauds `--baud` accepts.
  static let bauds = BytePacing.standardBauds.filter { $0 > 0 }

  /// Parses and validates `record`'s arguments (after the word `record`).
  static func parse(_ arguments: [String]) throws(UsageError) -> RecordOptions {
    var options = RecordOptions()
    var device: String?
    var output: String?
    var scanner = scanner
    scanner.start(arguments)
    while let item = try scanner.next() {
      switch item {
      case .operand(let argument):
        guard device == nil else {
          throw UsageError(
            message: "unexpected argument \(UsageError.quoted(argument)) for 'record'")
        }
        device = argument
      case .option(_, value: nil):
        options.overwrite = true
      case .option(let option, value: let value?) where option == "--out":
        guard !value.isEmpty, !value.hasSuffix("/") else {
          throw UsageError.invalidValue(value, for: option, "expected \(expected(option))")
        }
        output = value
      case .option(let option, value: let value?):
        guard let baud = NumberSpelling.unsignedInteger(value), bauds.contains(baud) else {
          throw UsageError.invalidValue(value, for: option, "expected \(expected(option))")
        }
        options.baud = baud
      }
    }
    guard let device else {
      throw UsageError(message: "missing device for 'record' (expected a serial port or PTY)")
    }
    guard let output else {
      throw UsageError(message: "missing '--out FILE' for 'record' (expected the file to create)")
    }
    options.devicePath = device
    options.outputPath = output
    return options
  }

  private static func expected(_ option: String) -> String {
    option == "--out"
      ? "a path for the recording"
      : "a standard baud: " + bauds.map(String.init).joined(separator: ", ")
  }

  /// The reader of `record`'s arguments: `-` alone is a device path.
  static let scanner = CommandLineScanner(
    valueOptions: ["--out": expected("--out"), "--baud": expected("--baud")],
    flags: ["--force"], dashIsOperand: true
  ) { option in
    UsageError(
      message: "unknown option \(UsageError.quoted(option)) for 'record' (expected one of "
        + allOptions.joined(separator: ", ") + ")")
  }
}
