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
    var index = 0
    while index < arguments.count {
      var argument = arguments[index]
      index += 1
      guard argument.hasPrefix("-"), argument != "-" else {
        guard device == nil else {
          throw UsageError(
            message: "unexpected argument \(UsageError.quoted(argument)) for 'record'")
        }
        device = argument
        continue
      }
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        inlineValue = String(argument[argument.index(after: equals)...])
        argument = String(argument[..<equals])
      }
      switch argument {
      case "--force":
        guard inlineValue == nil else {
          throw UsageError(message: "option '--force' takes no value")
        }
        guard !options.overwrite else { throw Self.givenTwice(argument) }
        options.overwrite = true
      case "--out", "--baud":
        let value: String
        if let inlineValue {
          value = inlineValue
        } else if index < arguments.count, !arguments[index].hasPrefix("--") {
          value = arguments[index]
          index += 1
        } else {
          throw UsageError(
            message: "missing value for '\(argument)' (expected \(expected(argument)))")
        }
        if argument == "--out" {
          guard output == nil else { throw Self.givenTwice(argument) }
          guard !value.isEmpty, !value.hasSuffix("/") else {
            throw UsageError.invalidValue(value, for: argument, "expected \(expected(argument))")
          }
          output = value
        } else {
          guard options.baud == nil else { throw Self.givenTwice(argument) }
          guard let baud = NumberSpelling.unsignedInteger(value), bauds.contains(baud) else {
            throw UsageError.invalidValue(value, for: argument, "expected \(expected(argument))")
          }
          options.baud = baud
        }
      default:
        throw UsageError(
          message: "unknown option \(UsageError.quoted(argument)) for 'record' (expected one of "
            + allOptions.joined(separator: ", ") + ")")
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

  private static func givenTwice(_ option: String) -> UsageError {
    UsageError(message: "option '\(option)' given more than once")
  }
}
