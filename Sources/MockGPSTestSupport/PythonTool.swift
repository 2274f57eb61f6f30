import Foundation

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
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "mockgps-\(tool)-\(UUID().uuidString)")
    try input.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try json(tool, arguments: [file.path] + arguments)
  }

  /// Runs `python3 Tests/Tools/<tool> ARGUMENTS…` and returns the JSON object it prints.
  ///
  /// - Throws: `Failure` when python3 or the tool's package is missing or the output is not JSON.
  public static func json(_ tool: String, arguments: [String]) throws -> [String: Any] {
    let run = try ChildProcess.run(
      "/usr/bin/env",
      ["python3", Fixtures.repositoryRoot.appendingPathComponent("Tests/Tools/\(tool)").path]
        + arguments)
    guard run.status == 0,
      let object = try? JSONSerialization.jsonObject(with: run.output) as? [String: Any]
    else {
      throw Failure(
        description: "\(tool) failed (status \(run.status)): it needs python3 "
          + "with pynmeagps and pyubx2 (scripts/install-deps --test): \(run.errorText)")
    }
    return object
  }
}
