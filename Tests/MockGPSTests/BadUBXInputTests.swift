import DeviceRuntime
import MockGPS
import MockGPSTestSupport
import Receiver
import Simulation
import TestFixtures
import Testing
import UBX

/// Bad UBX input as a u-blox chip handles it, on the manual clock: a frame whose checksum
/// fails is dropped unanswered, a CFG message of a length it cannot have is NAK'd; each is
/// counted, and logged with `--verbose` one line a second at most.
@Suite(.blocking, .timeLimit(.minutes(10))) struct BadUBXInputTests {
  static let rate = UBXFrame(.cfgRATE, payload: [0xE8, 0x03, 0x01, 0x00, 0x01, 0x00]).bytes
  /// `rate` with its last checksum byte wrong.
  static let badChecksum = rate.dropLast() + [rate[rate.count - 1] ^ 0xFF]
  static let shortRate = UBXFrame(.cfgRATE, payload: [0xE8, 0x03, 0x01, 0x00, 0x01]).bytes
  static let versionPoll = UBXFrame(.monVER).bytes

  /// An M8 whose first epoch has been read, logging at debug level into `lines`.
  static func chip(logging lines: CollectedLog = CollectedLog()) throws -> EmulatorHarness {
    var configuration = EmulatorConfiguration()
    configuration.profile = .ubloxM8
    let log = Log(level: .debug) { lines.append($0) }
    let harness = try EmulatorHarness(configuration: configuration, log: log)
    _ = try harness.step()
    return harness
  }

  static func isFrame(_ bytes: ArraySlice<UInt8>, _ type: UBXMessageType) -> Bool {
    bytes.count >= 4 && bytes.prefix(4).elementsEqual([0xB5, 0x62, type.messageClass, type.id])
  }

  @Test func aBadChecksumIsDroppedUnansweredAndCounted() throws {
    let harness = try Self.chip()
    defer { harness.stop() }
    // The poll after it shows when the chip has read both.
    try harness.send(bytes: Self.badChecksum + Self.versionPoll, expectingReplies: 1)
    let statistics = harness.emulator.statistics
    #expect(statistics.ubxChecksumErrors == 1)
    #expect(statistics.ubxLengthErrors == 0)
    let bytes = try harness.step()
    #expect(Self.isFrame(bytes[...], .monVER), "the poll's answer, and nothing for the bad frame")
    let acknowledgements = bytes.indices.filter {
      Self.isFrame(bytes[$0...], .ackNAK) || Self.isFrame(bytes[$0...], .ackACK)
    }
    #expect(acknowledgements.isEmpty)
  }

  @Test func aWrongLengthIsNakedAndCounted() throws {
    let harness = try Self.chip()
    defer { harness.stop() }
    try harness.send(bytes: Self.shortRate, expectingReplies: 1)
    let statistics = harness.emulator.statistics
    #expect(statistics.ubxLengthErrors == 1)
    #expect(statistics.ubxChecksumErrors == 0)
    let bytes = try harness.step()
    #expect(Array(bytes.prefix(10)) == UBXAcknowledgement.refuse(.cfgRATE).bytes)
  }

  @Test func aFloodIsLoggedOnceASecondWithItsCount() throws {
    let lines = CollectedLog()
    let harness = try Self.chip(logging: lines)
    defer { harness.stop() }
    let flood = Array(repeating: Self.badChecksum, count: 5).joined()
    try harness.send(bytes: Array(flood) + Self.versionPoll, expectingReplies: 1)
    #expect(harness.emulator.statistics.ubxChecksumErrors == 5)
    #expect(lines.count(containing: "bad checksum") == 1)
    let path = harness.emulator.device.slavePath
    #expect(lines.contains("\(path): a client sent UBX-CFG-RATE with a bad checksum"))
    // A second later, the next one is logged with the four left out.
    harness.clock.set(harness.clock.now().adding(nanoseconds: 1_000_000_000))
    try harness.send(bytes: Self.shortRate, expectingReplies: 1)
    #expect(lines.count(containing: "UBX-CFG-RATE with") == 2)
    #expect(
      lines.contains(
        "\(path): a client sent UBX-CFG-RATE with a payload of 5 bytes, a length it cannot"
          + " have: NAK'd (4 more bad UBX frames since the last line)"))
  }

  /// A bad frame is one line of the log: the fault, not also its bytes as garbage.
  @Test func aBadFrameIsLoggedOnce() throws {
    let lines = CollectedLog()
    let harness = try Self.chip(logging: lines)
    defer { harness.stop() }
    try harness.send(bytes: Self.badChecksum + Self.versionPoll, expectingReplies: 1)
    #expect(lines.count(containing: "bad checksum") == 1)
    #expect(lines.count(containing: "neither a sentence nor a UBX frame") == 0)
  }

  /// Bytes that are neither sentences nor frames are logged one line a second at most.
  @Test func garbageIsLoggedOnceASecondWithItsCount() throws {
    let lines = CollectedLog()
    let harness = try Self.chip(logging: lines)
    defer { harness.stop() }
    let garbage = Array("junk\r\n".utf8) + Self.versionPoll
    for _ in 0..<3 { try harness.send(bytes: garbage, expectingReplies: 1) }
    #expect(lines.count(containing: "neither a sentence nor a UBX frame") == 1)
    harness.clock.set(harness.clock.now().adding(nanoseconds: 1_000_000_000))
    try harness.send(bytes: garbage, expectingReplies: 1)
    #expect(lines.count(containing: "neither a sentence nor a UBX frame") == 2)
    #expect(lines.count(containing: "(2 more such reads since the last line)") == 1)
  }
}
