import DeviceRuntime
import DeviceTerminal
import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import Receiver
import Synchronization
import SystemIO
import TestFixtures
import Testing

/// Many serial devices served by one `IOLoop`, as every device of a process is.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct SharedIOLoopDeviceTests {
  static func wait(seconds: Double = 5, until condition: () -> Bool) -> Bool {
    Eventually.holds(within: seconds, intervalMicroseconds: 5000, condition)
  }

  @Test func devicesOnOneLoopSeeTheirOwnClientsAndTheirInput() throws {
    let loop = try IOLoop(name: "test-shared-io")
    try loop.start()
    defer { loop.stop() }
    let arrivals = Mutex([0, 0, 0, 0])
    let devices = try (0..<4).map { index in
      try SerialDevice(
        baud: 9600, log: Log(level: .error, sink: { _ in }),
        handler: LoggingCommandHandler(log: Log(level: .error, sink: { _ in })),
        firstClientArrived: { arrivals.withLock { $0[index] += 1 } }, io: loop)
    }
    defer { for device in devices { device.close() } }
    for device in devices { try device.start() }
    // Only the second device gets a client.
    let reader = try DeviceReader(path: devices[1].slavePath)
    // The arrival is reported after the device shows its client (SharedNodeWatcherDeviceTests).
    #expect(Self.wait { arrivals.withLock { $0 } == [0, 1, 0, 0] })
    #expect(devices.map(\.hasClients) == [false, true, false, false])
    #expect(devices[1].write(Array("$GPTXT,01,01,02,hello*00\r\n".utf8)[...]))
    #expect(reader.readLines(1, timeoutSeconds: 2).first?.text.hasPrefix("$GPTXT") == true)
    try reader.write("$PMTK605*31\r\n")
    #expect(Self.wait { devices[1].currentStatistics.commandsReceived == 1 })
    #expect(devices[0].currentStatistics.commandsReceived == 0)
    // Stopping one device leaves the others served.
    devices[0].close()
    let other = try DeviceReader(path: devices[2].slavePath)
    #expect(Self.wait { devices[2].hasClients })
    _ = other
  }
}
