import MockGPS
import SystemIO

/// The options of `mockgps run` that also serve the stream over the network: `--tcp` to TCP
/// clients, `--udp` as datagrams.
enum NetworkOptions {
  /// The host `--tcp PORT` listens on: nothing beyond loopback unless a host is given.
  static let defaultTCPHost = "127.0.0.1"

  /// Options that take a value, with what the value must be.
  static let valueOptions: [String: String] = [
    "--tcp": "[HOST:]PORT, HOST an IPv4 or [IPv6] address or localhost (default 127.0.0.1), "
      + "PORT from 0 (a free one) to 65535",
    "--udp": "HOST:PORT, HOST an IPv4 or [IPv6] address or localhost, PORT from 1 to 65535",
  ]

  /// The options in the order the help shows them.
  static let allOptions = ["--tcp", "--udp"]

  /// Sets an option of `configuration`; `invalid` makes the error naming the option and value.
  static func set(
    _ option: String, to value: String, in configuration: inout EmulatorConfiguration,
    invalid: (String) -> UsageError
  ) throws(UsageError) {
    let expected = "expected " + (valueOptions[option] ?? "")
    let address: InternetAddress
    do {
      address = try InternetAddress(
        parsing: value, defaultHost: option == "--tcp" ? defaultTCPHost : nil)
    } catch {
      throw invalid("\(error.description) (\(expected))")
    }
    if option == "--tcp" {
      configuration.tcp = address
    } else {
      guard address.port != 0 else { throw invalid("port 0 cannot be sent to (\(expected))") }
      configuration.udp = address
    }
  }

  /// What the start line adds: the addresses served, with the port picked for port 0.
  static func summary(_ emulator: Emulator) -> String? {
    let outputs = [
      emulator.tcpOutput.map { "tcp://\($0.address)" },
      emulator.udpOutput.map { "udp://\($0.address)" },
    ].compactMap { $0 }
    return outputs.isEmpty ? nil : "serving " + outputs.joined(separator: " and ")
  }
}
