import DeviceRuntime
import MockGPS
import Receiver
import Simulation

extension EmulatorHarness {
  /// A harness whose emulator hands what its client sends to `commandHandler` (a test's own
  /// receiver firmware), as `mockgps run` does with a profile's; the rest as
  /// `init(configuration:start:holdsClient:linkPath:log:)` says.
  public convenience init(
    configuration: EmulatorConfiguration, commandHandler: any ReceiverCommandHandler,
    start: UTCInstant = UTCInstant(nanosecondsSinceEpoch: 1_767_225_600_500_000_000),
    holdsClient: Bool = true, device: Device = .memory, log: Log = Log(level: .warning)
  ) throws {
    try self.init(
      configuration: configuration, start: start, holdsClient: holdsClient, linkPath: nil,
      device: device
    ) { settings, runtime in
      try Emulator(
        configuration: settings, log: log, commandHandler: commandHandler, runtime: runtime)
    }
  }
}
