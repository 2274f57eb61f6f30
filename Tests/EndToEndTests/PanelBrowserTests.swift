import Foundation
import MockGPSTestSupport
import TestFixtures
import Testing

/// The panel in a real browser (`Tests/Panel/test_panel_browser.py`): headless Chromium driven
/// by Selenium against `mockgps run --panel 0`, checked against a reader of the tty and the real
/// gpsd. Run as a user runs it: `python3 -m pytest -q Tests/Panel`.
///
/// Skipped when pytest, selenium, chromium or chromedriver is missing, unless
/// MOCKGPS_REQUIRE_BROWSER=1 (then it fails); gpsd missing fails under MOCKGPS_REQUIRE_GPSD=1.
@Suite(.blocking, .serialized) struct PanelBrowserTests {
  static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Panel").path
  static let required = ProcessInfo.processInfo.environment["MOCKGPS_REQUIRE_BROWSER"] == "1"
  static let hasBrowser =
    (try? TestProcess(
      "/usr/bin/env",
      [
        "python3", "-c",
        "import pytest, selenium, shutil, sys; "
          + "sys.exit(0 if shutil.which('chromium') and shutil.which('chromedriver') else 1)",
      ]))?
    .exitStatus(within: 30) == 0
  static let runnable = (hasBrowser && GpsdSession.runnable) || required

  @Test(
    .enabled(if: runnable, "needs python3-pytest, selenium, chromium, chromium-driver and gpsd"),
    .timeLimit(.minutes(10)))
  func thePanelWorksInHeadlessChromium() throws {
    // -p no:cacheprovider: nothing is written into the source tree (the screenshot goes to
    // .build/panel-screenshot.png).
    let pytest = try TestProcess(
      "/usr/bin/env",
      [
        "MOCKGPS_BIN=\(MockGPSBinary.path)", "python3", "-m", "pytest", "-q", "-rs",
        "-p", "no:cacheprovider", Self.tests,
      ])
    let status = pytest.exitStatus(within: 240)
    if status == nil { pytest.kill() }
    let output = pytest.standardOutput + pytest.standardError
    #expect(status == 0, "pytest: \(output)")
    // pytest exits 0 when every test skipped: the browser has to have run.
    #expect(output.contains(" passed") && !output.contains(" skipped"), "pytest: \(output)")
  }
}
