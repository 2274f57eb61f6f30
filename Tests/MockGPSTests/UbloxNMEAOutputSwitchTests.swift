import MockGPSTestSupport
import NMEA
import Receiver
import Testing
import UBX

/// A client switches GBS, GRS, DTM, VLW, PUBX,00 and PUBX,04 on the way its driver would (CFG-MSG on both
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

  @Test(arguments: messages)
  func cfgMSGSwitchesTheSentenceOnAndOffOnBothChips(_ message: Message) throws {
    for profile in [ReceiverProfile.ubloxM8, .ubloxF9P] {
      let harness = try ConfiguredEpoch.harness(profile)
      defer { harness.stop() }
      #expect(!Self.names(try harness.step()).contains(message.type))
      let on = UBXFrame(.cfgMSG, payload: [0xF0, message.id, 1])
      #expect(try Self.namesAfter(on, on: harness).contains(message.type), "\(profile.name)")
      let off = UBXFrame(.cfgMSG, payload: [0xF0, message.id, 0])
      #expect(!(try Self.namesAfter(off, on: harness).contains(message.type)), "\(profile.name)")
    }
  }

  @Test(arguments: messages)
  func valsetSwitchesTheSentenceOnAndOffOnTheF9P(_ message: Message) throws {
    let harness = try ConfiguredEpoch.harness(.ubloxF9P)
    defer { harness.stop() }
    let on = ConfiguredEpoch.valueSet([(message.uart1Key, 1)])
    #expect(try Self.namesAfter(on, on: harness).contains(message.type))
    let off = ConfiguredEpoch.valueSet([(message.uart1Key, 0)])
    #expect(!(try Self.namesAfter(off, on: harness).contains(message.type)))
  }

  /// The PUBX messages by name (`PUBX,04`), CFG-MSG ID in class F1 and UART1 CFG-MSGOUT key.
  static let pubxMessages = [
    Message(type: "PUBX,00", id: 0x00, uart1Key: 0x2091_00ED),
    Message(type: "PUBX,03", id: 0x03, uart1Key: 0x2091_00F2),
    Message(type: "PUBX,04", id: 0x04, uart1Key: 0x2091_00F7),
  ]

  /// The sentences of an epoch's NMEA lines by name: the type, `PUBX,04` for a PUBX message.
  static func names(_ bytes: [UInt8]) -> Set<String> {
    Set(
      bytes.split(separator: 0x0A).compactMap {
        guard let raw = try? RawSentence(parsing: String(decoding: $0, as: UTF8.self)) else {
          return nil
        }
        return raw.address == "PUBX" ? "PUBX," + (raw.fields.first ?? "") : raw.type
      })
  }

  /// Sends `frame` (acknowledged) and returns the sentence names of the next epoch.
  static func namesAfter(_ frame: UBXFrame, on harness: EmulatorHarness) throws -> Set<String> {
    try harness.send(bytes: frame.bytes, expectingReplies: 1)
    return names(try harness.step())
  }

  @Test(arguments: pubxMessages)
  func pubxIsSwitchedByCFGMSGOnBothChipsAndByVALSETOnTheF9P(_ message: Message) throws {
    for profile in [ReceiverProfile.ubloxM8, .ubloxF9P] {
      let harness = try ConfiguredEpoch.harness(profile)
      defer { harness.stop() }
      #expect(!Self.names(try harness.step()).contains { $0.hasPrefix("PUBX") })
      let on = UBXFrame(.cfgMSG, payload: [0xF1, message.id, 1])
      #expect(
        try Self.namesAfter(on, on: harness).filter { $0.hasPrefix("PUBX") } == [message.type],
        "\(profile.name)")
      let off = UBXFrame(.cfgMSG, payload: [0xF1, message.id, 0])
      #expect(!(try Self.namesAfter(off, on: harness).contains(message.type)), "\(profile.name)")
    }
    let harness = try ConfiguredEpoch.harness(.ubloxF9P)
    defer { harness.stop() }
    let on = ConfiguredEpoch.valueSet([(message.uart1Key, 1)])
    #expect(try Self.namesAfter(on, on: harness).filter { $0.hasPrefix("PUBX") } == [message.type])
    let off = ConfiguredEpoch.valueSet([(message.uart1Key, 0)])
    #expect(!(try Self.namesAfter(off, on: harness).contains(message.type)))
  }

  @Test(arguments: messages)
  func pubx40SwitchesTheSentenceOnAndOffOnUART1(_ message: Message) throws {
    let harness = try ConfiguredEpoch.harness(.ubloxM8)
    defer { harness.stop() }
    for (rate, sent) in [("1", true), ("0", false)] {
      let command = RawSentence(
        address: "PUBX", fields: ["40", message.type, "0", rate, "0", "0", "0", "0"])
      try harness.send(command.line)
      #expect(Self.names(try harness.step()).contains(message.type) == sent, "rate \(rate)")
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

  /// A sentence's type, `PUBX,04` for a PUBX message.
  static func name(_ raw: RawSentence) -> String {
    raw.address == "PUBX" ? "PUBX," + (raw.fields.first ?? "") : raw.type
  }

  @Test(arguments: [
    ("$EIGNQ,GBS*2E", "GBS"), ("$EIGPQ,DTM*3B", "DTM"), ("$EIGNQ,GST*38", "GST"),
    ("$PUBX,00*33", "PUBX,00"), ("$PUBX,03*30", "PUBX,03"), ("$PUBX,04*37", "PUBX,04"),
  ])
  func aPollIsAnsweredWithExactlyOneSentence(_ line: String, _ type: String) throws {
    for profile in [ReceiverProfile.ubloxM8, .ubloxF9P] {
      let harness = try ConfiguredEpoch.harness(profile)
      defer { harness.stop() }
      _ = try harness.step()
      try harness.send(line + "\r\n", expectingReplies: 1)
      let lines = try Self.sentences(harness.step())
      #expect(lines.filter { Self.name($0) == type }.count == 1, "\(profile.name)")
      #expect(lines.contains { $0.type == "RMC" }, "the epoch goes on")
      #expect(
        try Self.sentences(harness.step()).allSatisfy { Self.name($0) != type }, "answered once")
    }
  }
}
