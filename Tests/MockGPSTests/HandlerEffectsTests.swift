import DeviceRuntime
import Foundation
import MockGPS
import MockGPSTestSupport
import NMEA
import Receiver
import Simulation
import Synchronization
import TestFixtures
import Testing
import UBX

/// A handler with state: it remembers how many messages it has seen, and asks for a new rate,
/// a new sentence set, or answers a UBX poll.
struct CountingRateHandler: ReceiverCommandHandler {
  let seen: SeenMessages
  var count = 0

  mutating func handle(_ message: ClientMessage) -> [ReceiverEffect] {
    count += 1
    seen.record(message, count: count)
    switch message {
    case .nmea(let text) where text.hasPrefix("$PMTK220,200"):
      return [.setRate(.oneHertz.faster(5))]
    case .nmea(let text) where text.hasPrefix("$PMTK314"):
      return [.setOutput(OutputSelection(nmeaEveryEpoch: ["GGA"]))]
    case .ubx(let frame) where frame.messageType == .monVER:
      return [.reply(UBXFrame(.ackACK, payload: [0x0A, 0x04]).bytes)]
    default:
      return []
    }
  }
}

/// What a handler saw, for the test to read.
final class SeenMessages: Sendable {
  private let messages = Mutex<[(ClientMessage, Int)]>([])
  func record(_ message: ClientMessage, count: Int) {
    messages.withLock { $0.append((message, count)) }
  }
  var all: [(ClientMessage, Int)] { messages.withLock { $0 } }
}

extension CadencePlan {
  /// A plan at `hertz` epochs a second.
  func faster(_ hertz: Double) -> CadencePlan {
    (try? CadencePlan(rateHz: hertz)) ?? self
  }
}

@Suite(.blocking, .serialized) struct HandlerEffectsTests {
  /// An emulator with a `CountingRateHandler`, and a client that has read its first epoch.
  static func start(rateHz: Double) throws -> (SeenMessages, RunningEmulator, DeviceReader) {
    let seen = SeenMessages()
    let running = try RunningEmulator(
      rateHz: rateHz, baud: 0, handler: CountingRateHandler(seen: seen))
    let reader = try DeviceReader(path: running.linkPath)
    _ = reader.readUntil(type: "GGA", timeoutSeconds: 3)
    return (seen, running, reader)
  }

  @Test func aUBXPollReachesTheHandlerAndItsReplyTheClient() throws {
    let (seen, running, reader) = try Self.start(rateHz: 10)
    defer { running.stop() }
    _ = try reader.descriptor.write([0xB5, 0x62, 0x0A, 0x04, 0x00, 0x00, 0x0E, 0x34][...])
    try reader.write("$PMTK000*32\r\n")
    #expect(running.wait { seen.all.count == 2 })
    let messages = seen.all
    #expect(messages.first?.0 == .ubx(UBXFrame(.monVER)))
    // The handler kept its state between the two messages.
    #expect(messages.map(\.1) == [1, 2])
    #expect(running.wait { running.emulator.statistics.repliesSent == 1 })
  }
}

@Suite(.blocking, .serialized) struct RunTimeFaultTests {
  /// The README's example: the fix is lost for a while with every satellite still in view.
  @Test func aFixFaultSetAtRunTimeDropsTheFixAndKeepsTheSky() throws {
    let running = try RunningEmulator(rateHz: 10, baud: 0)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    let position = EmulatorConfiguration.defaultPosition
    let now = SystemUTCClock().now()
    running.emulator.setScene(
      Scene(
        motion: FixedPosition(position),
        faults: [
          FixFault(.forceMode(.noFix), window: FaultWindow(from: now, nanoseconds: 60_000_000_000))
        ]))
    _ = reader.readLines(100, timeoutSeconds: 0.3)
    let gga = try GGA(parsing: try #require(reader.readUntil(type: "GGA", timeoutSeconds: 3)).text)
    #expect(gga.quality?.integerValue == 0)
    #expect(gga.latitude == nil)
    let gsv = try GSV(parsing: try #require(reader.readUntil(type: "GSV", timeoutSeconds: 3)).text)
    #expect(gsv.satellitesInView?.integerValue == 10)
  }
}
