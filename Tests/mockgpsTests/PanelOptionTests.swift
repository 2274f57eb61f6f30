import SystemIO
import Testing

@testable import mockgps

@Suite struct PanelOptionTests {
  @Test func panelTakesAnAddressOnLoopbackByDefault() throws {
    #expect(
      try RunOptions.parse(["--panel", "8080"]).panel
        == InternetAddress(host: "127.0.0.1", port: 8080))
    #expect(
      try RunOptions.parse(["--panel=[::1]:0"]).panel == InternetAddress(host: "::1", port: 0))
    #expect(try RunOptions.parse([]).panel == nil)
  }

  @Test func panelGoesWithConfig() throws {
    let options = try RunOptions.parse(["--config", "devices.json", "--panel", "0", "-q"])
    #expect(options.configPath == "devices.json")
    #expect(options.panel == InternetAddress(host: "127.0.0.1", port: 0))
  }

  @Test(arguments: [
    ("--panel", "70000", "invalid value '70000' for '--panel': '70000' is not a port"),
    ("--panel", "evil.example:80", "'evil.example' is not an IPv4 or IPv6 address or localhost"),
    ("--panel", "", "invalid value '' for '--panel'"),
  ])
  func badAddressesAreOneLineUsageErrors(option: String, value: String, message: String) {
    #expect {
      _ = try RunOptions.parse([option, value])
    } throws: { error in
      let text = (error as? UsageError)?.message ?? ""
      return text.contains(message) && !text.contains("\n")
    }
  }
}
