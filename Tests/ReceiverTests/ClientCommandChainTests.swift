import NMEA
import Receiver
import Testing
import UBX

/// A handler for these tests only, to show the effects seam: MTK's `PMTK220` (fix interval) and
/// UBX CFG-RATE (measurement period) both set the rate, and CFG-RATE is acknowledged.
struct RateCommandHandler: ReceiverCommandHandler {
  /// Rate commands applied so far: a handler keeps state from one message to the next.
  var appliedCount = 0

  mutating func handle(_ message: ClientMessage) -> [ReceiverEffect] {
    switch message {
    case .nmea(let line):
      // $PMTK220,<fix interval in ms>*hh
      guard let sentence = try? RawSentence(parsing: line), sentence.address == "PMTK220",
        let milliseconds = sentence.fields.first.flatMap({ Int($0) }),
        let plan = Self.plan(periodMilliseconds: milliseconds)
      else { return [] }
      appliedCount += 1
      return [.setRate(plan)]
    case .ubx(let frame):
      // CFG-RATE: measRate (ms), navRate, timeRef, each UInt16 little-endian.
      guard frame.messageType == .cfgRATE, frame.payload.count == 6 else { return [] }
      let acknowledged = [frame.messageClass, frame.id]
      let milliseconds = Int(frame.payload[0]) | Int(frame.payload[1]) << 8
      guard let plan = Self.plan(periodMilliseconds: milliseconds) else {
        return [.reply(UBXFrame(.ackNAK, payload: acknowledged).bytes)]
      }
      appliedCount += 1
      return [.setRate(plan), .reply(UBXFrame(.ackACK, payload: acknowledged).bytes)]
    case .sirf, .rtcm:
      return []
    }
  }

  static func plan(periodMilliseconds: Int) -> CadencePlan? {
    guard periodMilliseconds > 0 else { return nil }
    return try? CadencePlan(rateHz: 1000 / Double(periodMilliseconds))
  }
}

@Suite struct ClientCommandChainTests {
  /// Bytes from pyubx2 1.4.0: CFG-RATE 200 ms and 1000 ms, and the ACK-ACK of a CFG-RATE.
  static let cfgRATE5Hz: [UInt8] = [
    0xB5, 0x62, 0x06, 0x08, 0x06, 0x00, 0xC8, 0x00, 0x01, 0x00, 0x01, 0x00, 0xDE, 0x6A,
  ]
  static let cfgRATE1Hz: [UInt8] = [
    0xB5, 0x62, 0x06, 0x08, 0x06, 0x00, 0xE8, 0x03, 0x01, 0x00, 0x00, 0x00, 0x00, 0x37,
  ]
  static let ackCFGRATE: [UInt8] = [0xB5, 0x62, 0x05, 0x01, 0x02, 0x00, 0x06, 0x08, 0x16, 0x3F]

  /// Feeds `bytes` to `input` in chunks of `chunkSize` and every message to `handler`.
  static func effects(
    of bytes: [UInt8], chunkSize: Int, input: inout ClientInput,
    handler: inout some ReceiverCommandHandler
  ) -> [ReceiverEffect] {
    var effects: [ReceiverEffect] = []
    var index = 0
    while index < bytes.count {
      let end = min(bytes.count, index + chunkSize)
      for message in input.receive(bytes[index..<end]) { effects += handler.handle(message) }
      index = end
    }
    return effects
  }

  static func effects(of bytes: [UInt8]) -> [ReceiverEffect] {
    var input = ClientInput()
    var handler = RateCommandHandler()
    return effects(of: bytes, chunkSize: bytes.count, input: &input, handler: &handler)
  }

  @Test func clientInputPassesTheMONVERPollItOnceDroppedAsGarbage() {
    var input = ClientInput()
    #expect(
      input.receive([0xB5, 0x62, 0x0A, 0x04, 0x00, 0x00, 0x0E, 0x34]) == [.ubx(UBXFrame(.monVER))])
    #expect(input.discardedByteCount == 0)
  }

  @Test func pmtk220SetsTheRate() throws {
    let effects = Self.effects(of: Array("$PMTK220,200*2C\r\n".utf8))
    #expect(effects == [.setRate(try CadencePlan(rateHz: 5))])
  }

  @Test func cfgRATESetsTheRateAndIsAcknowledged() throws {
    #expect(
      Self.effects(of: Self.cfgRATE5Hz) == [
        .setRate(try CadencePlan(rateHz: 5)), .reply(Self.ackCFGRATE),
      ])
  }

  @Test func aCFGRATEWithNoPeriodIsRefused() {
    let frame = UBXFrame(.cfgRATE, payload: [0, 0, 1, 0, 1, 0])
    #expect(Self.effects(of: frame.bytes) == [.reply(UBXFrame(.ackNAK, payload: [6, 8]).bytes)])
  }

  @Test(arguments: [1, 3, 16, 1000])
  func aMixedSessionGivesTheSameEffectsInOrderWhateverTheChunks(chunkSize: Int) throws {
    var input = ClientInput()
    input.didSend([RawSentence(address: "GPZDA", fields: ["1"])])
    let garbage = Array("\u{0}noise".utf8)
    let bytes =
      Array("$GPZDA,1*55\r\n$PMTK220,200*2C\r\n".utf8) + garbage + Self.cfgRATE1Hz
      + [0xB5, 0x62, 0x0A, 0x04, 0x00, 0x00, 0x0E, 0x34]
    var handler = RateCommandHandler()
    let effects = Self.effects(of: bytes, chunkSize: chunkSize, input: &input, handler: &handler)
    #expect(
      effects == [
        .setRate(try CadencePlan(rateHz: 5)), .setRate(.oneHertz), .reply(Self.ackCFGRATE),
      ])
    #expect(handler.appliedCount == 2)
    #expect(input.echoedSentenceCount == 1)
    #expect(input.discardedByteCount == garbage.count)
  }
}
