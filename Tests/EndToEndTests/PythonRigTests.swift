import Foundation
import MockGPSTestSupport
import TestFixtures
import Testing

/// The pytest rig example of `Tests/Rig` (the one the README shows), run as a user runs it:
/// `python3 -m pytest -q Tests/Rig`, against the mockgps built beside the tests and the real
/// gpsd.
///
/// Skipped when pytest or gpsd is missing, unless MOCKGPS_REQUIRE_GPSD=1 (then it fails).
@Suite(.blocking, .serialized) struct PythonRigTests {
  static let rig = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Rig").path
  static let hasPytest =
    (try? TestProcess("/usr/bin/env", ["python3", "-c", "import pytest"]))?
    .exitStatus(within: 30) == 0
  static let runnable = (hasPytest && GpsdSession.runnable) || GpsdSession.required

  @Test(.enabled(if: runnable, "needs python3-pytest and gpsd"), .timeLimit(.minutes(10)))
  func thePytestRigPassesAgainstTheRealGpsd() throws {
    // -p no:cacheprovider: nothing is written into the source tree.
    let pytest = try TestProcess(
      "/usr/bin/env",
      [
        "MOCKGPS_BIN=\(MockGPSBinary.path)", "python3", "-m", "pytest", "-q", "-rs",
        "-p", "no:cacheprovider", Self.rig,
      ])
    let status = pytest.exitStatus(within: 240)
    if status == nil { pytest.kill() }
    let output = pytest.standardOutput + pytest.standardError
    #expect(status == 0, "pytest: \(output)")
    // pytest exits 0 when every test skipped: the rig has to have run.
    #expect(output.contains(" passed") && !output.contains(" skipped"), "pytest: \(output)")
  }
}
