import MockGPS
import Testing

@testable import mockgps

/// `mockgps run --gpsd-socket PATH`: gpsd's control socket, told about the link.
@Suite struct GpsdSocketOptionTests {
  @Test func theSocketPathIsKeptAsGiven() throws {
    #expect(try RunOptions.parse([]).configuration.gpsdSocket == nil)
    let options = try RunOptions.parse(["--gpsd-socket", "/run/gpsd.sock", "--link", "/tmp/g"])
    #expect(options.configuration.gpsdSocket == "/run/gpsd.sock")
    #expect(try RunOptions.parse(["--gpsd-socket=s.sock"]).configuration.gpsdSocket == "s.sock")
  }

  @Test(arguments: [
    (
      ["--gpsd-socket", ""],
      "invalid value '' for '--gpsd-socket': expected the path of gpsd's control socket "
        + "(gpsd -F PATH), at most 107 bytes"
    ),
    (
      ["--gpsd-socket", "/" + String(repeating: "s", count: 107)],
      "invalid value '/\(String(repeating: "s", count: 107))' for '--gpsd-socket': expected the "
        + "path of gpsd's control socket (gpsd -F PATH), at most 107 bytes"
    ),
    (
      ["--gpsd-socket", "/run/gpsd.sock", "--link", "/tmp/my gps"],
      "option '--gpsd-socket' needs a '--link' path without spaces or control characters "
        + "(gpsd's control socket cannot name '/tmp/my gps')"
    ),
  ])
  func badValuesAreUsageErrors(arguments: [String], message: String) {
    #expect(throws: UsageError(message: message)) { try RunOptions.parse(arguments) }
  }

  @Test func aLinkWithSpacesNeedsNoGpsdSocket() throws {
    #expect(try RunOptions.parse(["--link", "/tmp/my gps"]).configuration.gpsdSocket == nil)
  }
}
