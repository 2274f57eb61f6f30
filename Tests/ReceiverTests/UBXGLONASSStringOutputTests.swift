import GNSSMeasurements
import Geodesy
import Simulation
import Testing

@testable import Receiver
@testable import UBX

/// RXM-SFRBX of GLONASS on the F9P: a string every 2 s of Moscow time (UTC + 3 h, so on UTC's
/// even seconds), strings 1–15 in order, with the satellite's freqId, the frame's ephemeris and
/// the superframe and frame numbers in word 3.
@Suite struct UBXGLONASSStringOutputTests {
  static let sky = OrbitalSky.nominal(constellations: [.glonass], seed: 2, channelLimit: 184)
  static let place = GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 35)
  /// 2026-01-01 00:00:00 UTC: 03:00:00 Moscow time, a half hour, superframe and frame start.
  static let halfHour = UTCInstant(nanosecondsSinceEpoch: 1_767_225_600_000_000_000)

  /// A GLONASS string as RXM-SFRBX carried it, at the epoch it came in.
  struct ReceivedString {
    var second: Int
    var slot: Int
    var frequencyID: Int
    var string: UInt128
    var frameWord: UInt32

    init(second: Int, payload: [UInt8]) {
      self.second = second
      slot = Int(payload[1])
      frequencyID = Int(payload[3])
      let words = (0..<Int(payload[4])).map { index in
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(payload[8 + 4 * index + $1]) << (8 * $1) }
      }
      string = UInt128(words[0]) << 53 | UInt128(words[1]) << 21 | UInt128(words[2] >> 11)
      frameWord = words[3]
    }

    /// m, bits 84–81.
    var number: Int { Int(string >> 80 & 0xF) }
    /// tb of string 2, bits 76–70, in units of 15 min.
    var tb: Int { Int(string >> 69 & 0x7F) }
  }

  /// The GLONASS strings of two minutes at 1 Hz, from a minute before the half hour.
  static func received() -> [ReceivedString] {
    let encoder = UBXRawMeasurementEncoder(
      satellites: sky.orbitingSatellites, seed: 2, epochPeriodSeconds: 1)
    return (-60..<60).flatMap { second in
      let time = halfHour.adding(nanoseconds: Int64(second) * 1_000_000_000)
      let tracked = sky.satellites(at: time, from: place).filter { $0.snr != nil }
      return encoder.subframes(at: time, tracked: tracked).map {
        #expect($0.messageType == .rxmSFRBX)
        #expect(Array($0.payload[0...4]) == [6, $0.payload[1], 0, $0.payload[3], 4])
        return ReceivedString(second: second, payload: $0.payload)
      }
    }
  }

  @Test func eachSatelliteSendsStrings1To15InOrderOnUTCsEvenSeconds() throws {
    let strings = Self.received()
    let bySlot = Dictionary(grouping: strings, by: \.slot)
    try #require(bySlot.count >= 4, "\(bySlot.keys.sorted())")
    var complete = 0
    for (slot, received) in bySlot {
      #expect(received.allSatisfy { $0.second % 2 == 0 }, "R\(slot)")
      // The string ending at the epoch: the one from 02:59:58 to 03:00:00 is string 15.
      #expect(
        received.allSatisfy { $0.number == (($0.second - 2) / 2 % 15 + 15) % 15 + 1 },
        "R\(slot): \(received.map(\.number))")
      let channel = try #require(GLONASSChannels.channel(ofSlot: slot))
      #expect(received.allSatisfy { $0.frequencyID == channel + 7 }, "R\(slot)")
      if received.count == 60 { complete += 1 }
    }
    #expect(complete >= 4, "satellites tracked throughout")
  }

  /// tb is 02:45 (11 quarter hours) before the half hour and 03:15 (13) after; each frame's
  /// strings share word 3, whose frame number steps by frame and superframe number by
  /// superframe (02:57:30 and 03:00:00 start superframes 72 and 73 of the Moscow day).
  @Test func theFramesShareTbAndWord3ChangesFromFrameToFrame() {
    let strings = Self.received()
    for string in strings where string.number == 2 {
      #expect(string.tb == (string.second <= 0 ? 11 : 13), "\(string.second) s: tb \(string.tb)")
    }
    for string in strings {
      // The string started 2 s before the epoch; Moscow time is 03:00:00 at second 0.
      let start = 10_800 + string.second - 2
      let superframe = start / 150 + 1
      let frame = start % 150 / 30 + 1
      #expect(
        string.frameWord == UInt32(superframe << 16 | frame),
        "\(string.second) s: \(String(string.frameWord, radix: 16))")
    }
  }
}
