import Foundation
import Synchronization

/// The independent decoders of `Tests/Tools` (pynmeagps, pyubx2), run on bytes from a test.
public enum PythonTool {
  /// A tool that did not run or did not print a JSON object.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Writes `input` to a temporary file, runs `python3 Tests/Tools/<tool> FILE ARGUMENTS…` and
  /// returns the JSON object it prints.
  ///
  /// - Throws: `Failure` when python3 or the tool's package is missing or the output is not JSON.
  public static func json(_ tool: String, input: Data, arguments: [String] = []) throws
    -> [String: Any]
  {
    let key = Request(tool: tool, input: input, arguments: arguments)
    if let output = answers.withLock({ $0[key] }), let object = parsed(output) { return object }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "mockgps-\(tool)-\(UUID().uuidString)")
    try input.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let output = try run(tool, arguments: [file.path] + arguments)
    answers.withLock { $0[key] = output.text }
    return output.object
  }

  /// Runs `python3 Tests/Tools/<tool> ARGUMENTS…` and returns the JSON object it prints.
  ///
  /// - Throws: `Failure` when python3 or the tool's package is missing or the output is not JSON.
  public static func json(_ tool: String, arguments: [String]) throws -> [String: Any] {
    try run(tool, arguments: arguments).object
  }

  /// A decoding asked of a tool: the tools are pure decoders, so the same bytes give the same
  /// answer, and a suite that decodes one log many times (every override mode of a passthrough
  /// against the same input) starts Python once for it (a start costs about 0.4 s).
  struct Request: Hashable {
    var tool: String
    var input: Data
    var arguments: [String]
  }

  /// What each request printed, in this test process.
  static let answers = Mutex<[Request: Data]>([:])

  static func parsed(_ output: Data) -> [String: Any]? {
    try? JSONSerialization.jsonObject(with: output) as? [String: Any]
  }

  static func run(_ tool: String, arguments: [String]) throws -> (
    text: Data, object: [String: Any]
  ) {
    let run = try ChildProcess.run(
      "/usr/bin/env",
      ["python3", Fixtures.repositoryRoot.appendingPathComponent("Tests/Tools/\(tool)").path]
        + arguments)
    guard run.status == 0, let object = parsed(run.output) else {
      throw Failure(
        description: "\(tool) failed (status \(run.status)): it needs python3 "
          + "with pynmeagps and pyubx2 (scripts/install-deps --test): \(run.errorText)")
    }
    return (run.output, object)
  }
}
