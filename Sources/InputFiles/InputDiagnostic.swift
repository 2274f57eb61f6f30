/// Where in an input file something was found: a line (and column) of a text or XML file, or a
/// path into a JSON document such as `timeline[2].do`.
public struct InputLocation: Hashable, Sendable, CustomStringConvertible {
  /// The file as the person named it.
  public var file: String
  /// The line, from 1.
  public var line: Int?
  /// The column, from 1.
  public var column: Int?
  /// The path of the value in a JSON document, such as `start.position[1]`.
  public var jsonPath: String?

  /// Creates a location.
  public init(file: String, line: Int? = nil, column: Int? = nil, jsonPath: String? = nil) {
    self.file = file
    self.line = line
    self.column = column
    self.jsonPath = jsonPath
  }

  /// `route.gpx:12`, `route.gpx:12:7`, `scenario.json: timeline[2].do`, or the file alone.
  public var description: String {
    var text = file
    if let line {
      text += ":\(line)"
      if let column { text += ":\(column)" }
    }
    if let jsonPath { text += ": \(jsonPath.isEmpty ? "(top level)" : jsonPath)" }
    return text
  }
}

/// One thing wrong in an input file, with where it is and what was expected.
public struct InputDiagnostic: Hashable, Sendable, CustomStringConvertible {
  /// Where the problem is.
  public var location: InputLocation
  /// What is wrong and what was expected, in one line.
  public var message: String

  /// Creates a diagnostic.
  public init(_ location: InputLocation, _ message: String) {
    self.location = location
    self.message = message
  }

  /// `route.gpx:12: latitude 91 is outside -90...90`.
  public var description: String { "\(location): \(message)" }
}

/// Why an input file (route, scenario) could not be used.
public enum InputFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file is missing or cannot be read: sysexits EX_NOINPUT (66).
  case unreadable(path: String, reason: String)
  /// The file was read and is wrong: every problem found, in file order (EX_DATAERR, 65).
  case invalid([InputDiagnostic])

  /// The most problems a reader reports before it stops looking.
  public static let diagnosticLimit = 100

  /// The exit code of a command that stops for this error (sysexits).
  public var exitCode: Int32 {
    switch self {
    case .unreadable: return 66
    case .invalid: return 65
    }
  }

  /// One line per problem.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason): return "\(path): \(reason)"
    case .invalid(let diagnostics): return diagnostics.map(\.description).joined(separator: "\n")
    }
  }
}

extension InputFileError {
  /// The refusal of file `name`, a `kind` (`route file`), for holding `byteCount` bytes when
  /// at most `limit` are read: `track.gpx: route file of 300000000 bytes: at most 268435456
  /// bytes are read; thin…`, with `advice` after the semicolon.
  package static func tooLarge(_ name: String, kind: String, limit: Int, advice: String? = nil)
    -> (_ byteCount: Int) -> InputFileError
  {
    { byteCount in
      .invalid([
        InputDiagnostic(
          InputLocation(file: name),
          "\(kind) of \(byteCount) bytes: at most \(limit) bytes are read"
            + (advice.map { "; \($0)" } ?? ""))
      ])
    }
  }
}
