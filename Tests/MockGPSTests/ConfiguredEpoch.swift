import MockGPS
import MockGPSTestSupport
import NMEA
import Receiver
import TestFixtures
import UBX

/// What one epoch's bytes say about the satellites and the NMEA dialect, for the tests of the
/// u-blox configuration that takes effect on the sky and the sentences.
struct ConfiguredEpoch {
  /// Talkers of the GSV sentences (`GP`, `GL`…).
  var gsvTalkers: Set<String> = []
  /// Per GSV group (talker, then `/signal` when there is a signal field), its satellites in view.
  var gsvGroups: [String: Int] = [:]
  /// Talker of RMC.
  var rmcTalker: String?
  /// GGA's count of satellites used.
  var satellitesUsed: Int?
  /// Satellites listed in the GSA sentences.
  var satellitesInGSA = 0
  /// The system IDs of the GSA sentences (nil: no field, NMEA before 4.10).
  var gsaSystemIDs: [Int?] = []
  /// The `gnssId`s of NAV-SAT, if one was sent.
  var navSatSystems: Set<UInt8>?
  /// MON-GNSS's `enabled` mask, if one was sent.
  var monGNSSEnabled: UInt8?
  /// Per GSV group, the satellite numbers it lists.
  var gsvNumbers: [String: Set<Int>] = [:]
  /// The satellite numbers of the GSA sentences.
  var gsaNumbers: Set<Int> = []
  /// NAV-SAT's satellites (`gnssId`, `svId`, `svUsed`), if one was sent.
  var navSatSatellites: [(system: UInt8, number: Int, isUsed: Bool)]?
  /// Every UBX frame of the epoch, in order.
  var ubxFrames: [UBXFrame] = []

  init(_ bytes: [UInt8]) {
    var rest = bytes[...]
    while let start = rest.firstIndex(where: { $0 == 0x24 || $0 == 0xB5 }) {
      rest = rest[start...]
      if rest.first == 0xB5 {
        let length = rest.dropFirst(4).prefix(2).reversed().reduce(0) { $0 << 8 | Int($1) }
        if let frame = try? UBXFrame(parsing: rest.prefix(length + 8)) {
          note(frame)
          rest = rest.dropFirst(length + 8)
        } else {
          rest = rest.dropFirst()
        }
        continue
      }
      let end = rest.firstIndex(of: 0x0A) ?? rest.endIndex
      note(line: String(decoding: rest[..<end], as: UTF8.self))
      rest = rest[end...].dropFirst()
    }
  }

  mutating func note(line: String) {
    guard let sentence = try? RawSentence(parsing: line) else { return }
    switch sentence.type {
    case "GSV":
      gsvTalkers.insert(sentence.talker)
      guard let gsv = try? GSV(sentence) else { return }
      let group = sentence.talker + (gsv.signalID?.integerValue.map { "/\($0)" } ?? "")
      gsvGroups[group] = gsv.satellitesInView?.integerValue
      gsvNumbers[group, default: []].formUnion(gsv.satellites.compactMap(\.id?.integerValue))
    case "RMC": rmcTalker = sentence.talker
    case "GGA": satellitesUsed = (try? GGA(sentence))?.satellitesUsed?.integerValue
    case "GSA":
      guard let gsa = try? GSA(sentence) else { return }
      satellitesInGSA += gsa.satelliteIDs.compactMap { $0 }.count
      gsaNumbers.formUnion(gsa.satelliteIDs.compactMap { $0?.integerValue })
      gsaSystemIDs.append(gsa.systemID?.integerValue)
    default: break
    }
  }

  mutating func note(_ frame: UBXFrame) {
    ubxFrames.append(frame)
    if frame.messageType == .monGNSS, frame.payload.count >= 4 {
      monGNSSEnabled = frame.payload[3]
    }
    guard frame.messageType == .navSAT, frame.payload.count >= 8 else { return }
    let count = Int(frame.payload[5])
    navSatSystems = Set((0..<count).compactMap { frame.payload.dropFirst(8 + 12 * $0).first })
    navSatSatellites = (0..<count).compactMap { index in
      let block = Array(frame.payload.dropFirst(8 + 12 * index).prefix(12))
      guard block.count == 12 else { return nil }
      return (block[0], Int(block[1]), block[8] & 0x08 != 0)
    }
  }

  /// The numbers of NAV-SAT's satellites of one `gnssId`, and whether any is used.
  func navSatNumbers(system: UInt8) -> (numbers: Set<Int>, anyUsed: Bool) {
    let listed = (navSatSatellites ?? []).filter { $0.system == system }
    return (Set(listed.map(\.number)), listed.contains(where: \.isUsed))
  }

  /// A harness of `profile` at 115200 baud, its client reading at any speed.
  static func harness(_ profile: ReceiverProfile) throws -> EmulatorHarness {
    var configuration = EmulatorConfiguration(pacing: try BytePacing(baud: 115_200))
    configuration.profile = profile
    configuration.baudMismatch = .clean
    return try EmulatorHarness(configuration: configuration)
  }

  /// The epoch after the harness was sent `frame`, which the chip answers with `replies`
  /// messages (its acknowledgement, or a poll's answer and the acknowledgement).
  init(after frame: UBXFrame, replies: Int = 1, on harness: EmulatorHarness) throws {
    try harness.send(bytes: frame.bytes, expectingReplies: replies)
    self.init(try harness.step())
  }

  /// A CFG-VALSET to RAM of one-byte items.
  static func valueSet(_ items: [(UInt32, UInt8)]) -> UBXFrame {
    let payload: [UInt8] =
      [0, 1, 0, 0]
      + items.flatMap { key, value in
        [UInt8(key & 0xFF), UInt8(key >> 8 & 0xFF), UInt8(key >> 16 & 0xFF), UInt8(key >> 24)]
          + [value]
      }
    return UBXFrame(.cfgVALSET, payload: payload)
  }
}
