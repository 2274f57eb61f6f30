import MockGPS
import SystemIO
import Testing

@testable import mockgps

/// `mockgps run --tcp [HOST:]PORT --udp HOST:PORT`.
@Suite struct NetworkOptionsTests {
  @Test(arguments: [
    ("2947", InternetAddress(host: "127.0.0.1", port: 2947)),
    ("0", InternetAddress(host: "127.0.0.1", port: 0)),
    ("0.0.0.0:10110", InternetAddress(host: "0.0.0.0", port: 10110)),
    ("[::1]:5000", InternetAddress(host: "::1", port: 5000)),
    ("localhost:65535", InternetAddress(host: "localhost", port: 65535)),
  ])
  func tcpTakesAPortAndAnOptionalHost(value: String, address: InternetAddress) throws {
    #expect(try RunOptions.parse(["--tcp", value]).configuration.tcp == address)
  }

  @Test func udpTakesAHostAndAPort() throws {
    let options = try RunOptions.parse(["--udp", "[fe80::1]:10110", "--tcp=5000"])
    #expect(options.configuration.udp == InternetAddress(host: "fe80::1", port: 10110))
    #expect(options.configuration.tcp == InternetAddress(host: "127.0.0.1", port: 5000))
    #expect(try RunOptions.parse([]).configuration.udp == nil)
  }

  @Test(arguments: [
    (["--tcp", "65536"], "invalid value '65536' for '--tcp': '65536' is not a port"),
    (["--tcp", "-1"], "'-1' is not a port"),
    (["--tcp", "host.example:80"], "'host.example' is not an IPv4 or IPv6 address or localhost"),
    (["--tcp", "127.0.0.1:"], "invalid value '127.0.0.1:' for '--tcp': '' is not a port"),
    (["--tcp", "[::1]5000"], "'5000' is not a port"),
    (["--tcp", "+80"], "'+80' is not a port"),
    (["--udp", "5000"], "invalid value '5000' for '--udp': a host is needed"),
    (["--udp", "127.0.0.1:0"], "port 0 cannot be sent to"),
    (["--udp", "1.2.3:9"], "'1.2.3' is not an IPv4 or IPv6 address"),
  ])
  func badValuesAreOneLineUsageErrors(arguments: [String], message: String) {
    #expect {
      _ = try RunOptions.parse(arguments)
    } throws: { error in
      let text = (error as? UsageError)?.message ?? ""
      return text.contains(message) && !text.contains("\n")
    }
  }
}
