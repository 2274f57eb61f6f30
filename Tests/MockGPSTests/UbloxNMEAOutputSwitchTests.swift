import MockGPSTestSupport
import NMEA
import Receiver
import Testing
import UBX

/// A client switches GBS, GRS, DTM and VLW on the way its driver would (CFG-MSG on both
/// u-blox profiles, CFG-VALSET's CFG-MSGOUT-NMEA_ID_*_UART1 on the F9P, `$PUBX,40`): the next
/// epoch carries the sentence, and once switched off again the epoch after does not.
@Suite(.blocking) struct UbloxNMEAOutputSwitchTests {
  /// A sentence type, its CFG-MSG ID in class F0 and its UART1 CFG-MSGOUT key on the F9P.
  struct Message: CustomTestStringConvertible, Sendable {
    let type: String
    let id: UInt8
    let uart1Key: UInt32
    var testDescription: String { type }
  }

  static let messages = [
    Message(type: "GBS", id: 0x09, uart1Key: 0x2091_00DE),
    Message(type: "GRS", id: 0x06, uart1Key: 0x2091_00CF),
    Message(type: "DTM", id: 0x0A, uart1Key: 0x2091_00A7),
    Message(type: "VLW", id: 0x0F, uart1Key: 0x2091_00E8),
  ]

  /// The sentence types of an epoch's NMEA lines.
  static func types(_ bytes: [UInt8]) -> Set<String> {
    Set(
      bytes.split(separator: 0x0A).compactMap {
        try? RawSentence(parsing: String(decoding: $0, as: UTF8.self)).type
      })
  }

  /// Sends `frame` (acknowledged) and returns the types of the next epoch.
  static func typesAfter(_ frame: UBXFrame, on harness: EmulatorHarness) throws -> Set<String> {
    try harness.send(bytes: frame.bytes, expectingReplies: 1)
    return types(try harness.step())
  }

  @Test(arguments: messages)
  func cfgMSGSwitchesTheSentenceOnAndOffOnBothChips(_ message: Message) throws {
    for profile in [ReceiverProfile.ubloxM8, .ubloxF9P] {
      let harness = try ConfiguredEpoch.harness(profile)
      defer { harness.stop() }
      #expect(!Self.types(try harness.step()).contains(message.type))
      let on = UBXFrame(.cfgMSG, payload: [0xF0, message.id, 1])
      #expect(try Self.typesAfter(on, on: harness).contains(message.type), "\(profile.name)")
      let off = UBXFrame(.cfgMSG, payload: [0xF0, message.id, 0])
      #expect(!(try Self.typesAfter(off, on: harness).contains(message.type)), "\(profile.name)")
    }
  }

  @Test(arguments: messages)
  func valsetSwitchesTheSentenceOnAndOffOnTheF9P(_ message: Message) throws {
    let harness = try ConfiguredEpoch.harness(.ubloxF9P)
    defer { harness.stop() }
    let on = ConfiguredEpoch.valueSet([(message.uart1Key, 1)])
    #expect(try Self.typesAfter(on, on: harness).contains(message.type))
    let off = ConfiguredEpoch.valueSet([(message.uart1Key, 0)])
    #expect(!(try Self.typesAfter(off, on: harness).contains(message.type)))
  }

  @Test func pubxPositionIsSwitchedByCFGMSGOnBothChipsAndByVALSETOnTheF9P() throws {
    for profile in [ReceiverProfile.ubloxM8, .ubloxF9P] {
      let harness = try ConfiguredEpoch.harness(profile)
      defer { harness.stop() }
      #expect(!Self.types(try harness.step()).contains("UBX"))
      let on = UBXFrame(.cfgMSG, payload: [0xF1, 0x00, 1])
      #expect(try Self.typesAfter(on, on: harness).contains("UBX"), "\(profile.name)")
      let off = UBXFrame(.cfgMSG, payload: [0xF1, 0x00, 0])
      #expect(!(try Self.typesAfter(off, on: harness).contains("UBX")), "\(profile.name)")
    }
    let harness = try ConfiguredEpoch.harness(.ubloxF9P)
    defer { harness.stop() }
    let on = ConfiguredEpoch.valueSet([(0x2091_00ED, 1)])
    #expect(try Self.typesAfter(on, on: harness).contains("UBX"))
    let off = ConfiguredEpoch.valueSet([(0x2091_00ED, 0)])
    #expect(!(try Self.typesAfter(off, on: harness).contains("UBX")))
  }

  @Test(arguments: messages)
  func pubx40SwitchesTheSentenceOnAndOffOnUART1(_ message: Message) throws {
    let harness = try ConfiguredEpoch.harness(.ubloxM8)
    defer { harness.stop() }
    for (rate, sent) in [("1", true), ("0", false)] {
      let command = RawSentence(
        address: "PUBX", fields: ["40", message.type, "0", rate, "0", "0", "0", "0"])
      try harness.send(command.line)
      #expect(Self.types(try harness.step()).contains(message.type) == sent, "rate \(rate)")
    }
  }
}

/// A poll of a sentence the output leaves off gets that sentence once, beside the epoch.
@Suite(.blocking) struct UbloxNMEAPollDeviceTests {
  static func sentences(_ bytes: [UInt8]) -> [RawSentence] {
    bytes.split(separator: 0x0A).compactMap {
      try? RawSentence(parsing: String(decoding: $0, as: UTF8.self))
    }
  }

  @Test(arguments: [
    ("$EIGNQ,GBS*2E", "GBS"), ("$EIGPQ,DTM*3B", "DTM"), ("$EIGNQ,GST*38", "GST"),
    ("$PUBX,00*33", "UBX"),
  ])
  func aPollIsAnsweredWithExactlyOneSentence(_ line: String, _ type: String) throws {
    for profile in [ReceiverProfile.ubloxM8, .ubloxF9P] {
      let harness = try ConfiguredEpoch.harness(profile)
      defer { harness.stop() }
      _ = try harness.step()
      try harness.send(line + "\r\n", expectingReplies: 1)
      let lines = try Self.sentences(harness.step())
      #expect(lines.filter { $0.type == type }.count == 1, "\(profile.name)")
      #expect(lines.contains { $0.type == "RMC" }, "the epoch goes on")
      #expect(try Self.sentences(harness.step()).allSatisfy { $0.type != type }, "answered once")
    }
  }
}
