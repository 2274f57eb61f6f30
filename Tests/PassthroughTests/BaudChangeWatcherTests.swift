import NMEA
import TestFixtures
import Testing
import UBX

@testable import Passthrough

@Suite(.blocking) struct BaudChangeWatcherTests {
  /// The CFG-PRT payload gpsd 3.22's `ubx_cfg_prt` sends to change a serial u-blox to 115200
  /// baud (`drivers/driver_ubx.c`): UART1, mode 0x08D0 (8N1), in NMEA+UBX+RTCM+RTCM3 (0x27),
  /// out NMEA+UBX+RTCM3 (0x23).
  static let gpsdCFGPRT115200: [UInt8] = [
    0x01, 0x00, 0x00, 0x00, 0xD0, 0x08, 0x00, 0x00, 0x00, 0xC2, 0x01, 0x00,
    0x27, 0x00, 0x23, 0x00, 0x00, 0x00, 0x00, 0x00,
  ]
  static let cfgPRT = UBXFrame(.cfgPRT, payload: gpsdCFGPRT115200).bytes
  static let ackOfCFGPRT = UBXAcknowledgement.acknowledge(.cfgPRT).bytes
  /// What a u-blox sends each second meanwhile, at the old rate.
  static let receiverTraffic = Array(
    "$GPRMC,225446,A,4916.45,N,12311.12,W,000.5,054.7,191194,020.3,E*68\r\n".utf8)

  static func sentence(_ body: String) -> [UInt8] {
    Array("$\(body)*\(Checksum.hex(Checksum.of(body.utf8)))\r\n".utf8)
  }

  /// Feeds `bytes` in chunks of random sizes (1 to 16 bytes), seeded.
  static func chunks(_ bytes: [UInt8], seed: UInt64) -> [ArraySlice<UInt8>] {
    var generator = SplitMix64(seed: seed)
    var result: [ArraySlice<UInt8>] = []
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + Int.random(in: 1...16, using: &generator))
      result.append(bytes[start..<end])
      start = end
    }
    return result
  }

  /// Runs a client command and the receiver's answer through a watcher, in chunks; returns the
  /// bauds the watcher asked to switch to.
  static func follow(client: [UInt8], receiver: [UInt8], seed: UInt64) -> [Int] {
    var watcher = BaudChangeWatcher()
    for chunk in chunks(client, seed: seed) { watcher.clientSent(chunk) }
    return chunks(receiver, seed: seed + 1).compactMap { watcher.receiverSent($0) }
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func followsGpsdsCFGPRTOnceTheReceiverAcknowledgesIt(seed: UInt64) {
    #expect(UBXPortConfiguration(payload: Self.gpsdCFGPRT115200)?.baud == 115_200)
    var watcher = BaudChangeWatcher()
    for chunk in Self.chunks(Self.cfgPRT, seed: seed) { watcher.clientSent(chunk) }
    #expect(watcher.pending?.baud == 115_200)
    for chunk in Self.chunks(Self.receiverTraffic, seed: seed) {
      let followed = watcher.receiverSent(chunk)
      #expect(followed == nil)
    }
    let answers = Self.chunks(Self.ackOfCFGPRT + Self.receiverTraffic, seed: seed)
      .compactMap { watcher.receiverSent($0) }
    #expect(answers == [115_200])
    #expect(watcher.pending == nil)
  }

  /// gpsd's CFG-PRT for another port: `port` as its first byte.
  static func cfgPRT(port: UInt8) -> [UInt8] {
    UBXFrame(.cfgPRT, payload: [port] + gpsdCFGPRT115200.dropFirst()).bytes
  }

  @Test func aChangeOfUART2IsNotFollowedBeforeTheReceiverNamesItsPort() {
    #expect(Self.follow(client: Self.cfgPRT(port: 2), receiver: Self.ackOfCFGPRT, seed: 5) == [])
  }

  @Test func onlyTheChangeOfThePortTheReceiverTalksOnIsFollowed() {
    // The receiver answers a poll for its port's configuration: it talks on USB (3).
    var watcher = BaudChangeWatcher()
    _ = watcher.receiverSent(Self.cfgPRT(port: 3))
    #expect(watcher.receiverPortID == 3)
    watcher.clientSent(Self.cfgPRT(port: 1))
    #expect(watcher.pending == nil)
    watcher.clientSent(Self.cfgPRT(port: 3))
    #expect(watcher.pending?.baud == 115_200)
    #expect(watcher.receiverSent(Self.ackOfCFGPRT) == 115_200)
  }

  @Test func aPollOfCFGPRTIsNoChange() {
    for payload in [[], [0x01]] as [[UInt8]] {
      let poll = UBXFrame(.cfgPRT, payload: payload).bytes
      #expect(Self.follow(client: poll, receiver: Self.ackOfCFGPRT, seed: 4).isEmpty)
    }
  }

  @Test func theAcknowledgementOfAnotherCommandOrARefusalIsNoChange() {
    let ackOfCFGMSG = UBXAcknowledgement.acknowledge(.cfgMSG).bytes
    #expect(Self.follow(client: Self.cfgPRT, receiver: ackOfCFGMSG, seed: 5).isEmpty)
    let refusal = UBXAcknowledgement.refuse(.cfgPRT).bytes
    #expect(Self.follow(client: Self.cfgPRT, receiver: refusal + Self.ackOfCFGPRT, seed: 6).isEmpty)
  }

  @Test func anAcknowledgementWithoutACommandIsNoChange() {
    #expect(Self.follow(client: [], receiver: Self.ackOfCFGPRT, seed: 7).isEmpty)
  }

  static func valueSet(layers: UInt8, baud: UInt32) -> [UInt8] {
    var payload = UBXPayloadWriter()
    payload.u1(0)
    payload.u1(layers)
    payload.u2(0)
    payload.u4(UBXConfigurationKey.uart1Baud.rawValue)
    payload.u4(baud)
    return UBXFrame(.cfgVALSET, payload: payload.bytes).bytes
  }

  @Test func followsCFGVALSETOfTheUART1BaudInRAM() {
    let ack = UBXAcknowledgement.acknowledge(.cfgVALSET).bytes
    #expect(
      Self.follow(client: Self.valueSet(layers: 0x07, baud: 38_400), receiver: ack, seed: 8)
        == [38_400])
    // Saved to flash only, it takes effect at the next start, not now.
    #expect(
      Self.follow(client: Self.valueSet(layers: 0x04, baud: 38_400), receiver: ack, seed: 9)
        .isEmpty)
  }

  @Test func followsPMTK251WhenTheReceiverAcknowledgesIt() {
    let command = Array("$PMTK251,38400*27\r\n".utf8)
    #expect(command == Self.sentence("PMTK251,38400"))
    #expect(
      Self.follow(client: command, receiver: Self.sentence("PMTK001,251,3"), seed: 10)
        == [38_400])
    #expect(
      Self.follow(client: command, receiver: Self.sentence("PMTK001,251,2"), seed: 11)
        .isEmpty)
    #expect(
      Self.follow(client: command, receiver: Self.sentence("PMTK001,220,3"), seed: 12)
        .isEmpty)
  }

  @Test func followsPMTK251WhenTheReceiverGoesOnAtAnotherRateWithoutAnswer() {
    let command = Self.sentence("PMTK251,38400")
    let oldRate = Array(repeating: Self.receiverTraffic, count: 5).joined().map { $0 }
    #expect(Self.follow(client: command, receiver: oldRate, seed: 13).isEmpty)
    // The receiver's next seconds at 38400 baud, read at 9600.
    let seconds = Array(repeating: Self.receiverTraffic, count: 40).joined().map { $0 }
    let newRate = UARTLine.resample(seconds, sentAt: 38_400, readAt: 9600)
    #expect(Self.follow(client: command, receiver: oldRate + newRate, seed: 14) == [38_400])
    #expect(Self.follow(client: [], receiver: newRate, seed: 15).isEmpty)
  }

  @Test func sentencesHitByNoiseAtTheOldRateAreNoSwitch() {
    var noisy = Self.receiverTraffic
    noisy[20] ^= 0x01
    let receiver = noisy + noisy + Self.receiverTraffic + noisy + noisy
    #expect(Self.follow(client: Self.cfgPRT, receiver: receiver, seed: 19).isEmpty)
  }

  @Test func anUnansweredCommandIsGivenUpAfterManyPacketsAtTheOldRate() {
    let oldRate = Array(
      repeating: Self.receiverTraffic, count: BaudChangeWatcher.abandonAfterPackets
    ).joined().map { $0 }
    #expect(
      Self.follow(client: Self.cfgPRT, receiver: oldRate + Self.ackOfCFGPRT, seed: 16).isEmpty)
  }

  @Test func aMegabyteOfGarbageEachWayChangesNothingAndLeavesTheWatcherWorking() {
    var generator = SplitMix64(seed: 17)
    var watcher = BaudChangeWatcher()
    for _ in 0..<256 {
      let chunk = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
      watcher.clientSent(chunk)
      let followed = watcher.receiverSent(chunk)
      #expect(followed == nil)
    }
    #expect(watcher.pending == nil)
    // What the garbage left half-framed (at most one frame, 9216 bytes) is given up once
    // longer bytes follow, and the command and its answer are found in them.
    watcher.clientSent(Self.cfgPRT + Array(repeating: 0, count: 10_000))
    #expect(watcher.pending?.baud == 115_200)
    let traffic = Array(repeating: Self.receiverTraffic, count: 140).joined().map { $0 }
    let answers = Self.chunks(traffic + Self.ackOfCFGPRT, seed: 18)
      .compactMap { watcher.receiverSent($0) }
    #expect(answers == [115_200])
  }
}
