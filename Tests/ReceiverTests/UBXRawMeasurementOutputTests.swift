import GNSSMeasurements
import Geodesy
import Simulation
import TestFixtures
import Testing

@testable import Receiver
@testable import UBX

/// RXM-RAWX and RXM-SFRBX on the F9P and the M8 (as an M8T): switched on by CFG-MSGOUT or
/// CFG-MSG, built from the sky's orbits for the satellites the fix tracks. pyubx2 runs as a
/// process, hence `.blocking`.
@Suite(.blocking) struct UBXRawMeasurementOutputTests {
  static let sky = OrbitalSky.nominal(constellations: [.gps], seed: 2)
  static let place = GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 35)

  /// A fix at `place` at `time` (GPS time of week a multiple of 6 s when `second` is 0).
  static func fix(at time: UTCInstant) -> Fix {
    let satellites = sky.satellites(at: time, from: place)
    return Fix(
      time: time, mode: .threeDimensional, position: place, geoidSeparationMeters: 47.3,
      speedMetersPerSecond: 0, courseDegrees: 0, satellites: satellites,
      dop: DilutionOfPrecision(
        directions: satellites.filter(\.isUsed).map { ($0.azimuth, $0.elevation) }),
      climbMetersPerSecond: 0)
  }

  static func frames(
    after commands: [UBXFrame], at time: UTCInstant, profile: ReceiverProfile = .ubloxF9P
  ) -> [UBXFrame] {
    var handler = UbloxCommandHandler(profile: profile)
    for command in commands { _ = handler.handle(.ubx(command)) }
    var encoder = UBXNavigationEncoder(profile: profile)
    encoder.rawMeasurements = UBXRawMeasurementEncoder(
      satellites: sky.orbitingSatellites, seed: 2, epochPeriodSeconds: 1)
    return encoder.frames(for: fix(at: time), output: handler.output, epochIndex: 0)
  }

  /// 2026-01-01 00:00:00 UTC is 345,618 s into GPS week 2399: a multiple of 6.
  static let subframeEnd = UTCInstant(nanosecondsSinceEpoch: 1_767_225_600_000_000_000)

  @Test func cfgMSGOUTSwitchesOnBothAndPyubx2DecodesThem() throws {
    let valset = UbloxConfigurationFrames.valset([
      ("CFG-MSGOUT-UBX_RXM_RAWX_UART1", 1), ("CFG-MSGOUT-UBX_RXM_SFRBX_UART1", 1),
    ])
    let frames = Self.frames(after: [valset], at: Self.subframeEnd)
    let tracked = Self.fix(at: Self.subframeEnd).satellites.filter { $0.snr != nil }
    let types = frames.map(\.messageType)
    #expect(types.first == .rxmRAWX)
    #expect(types.filter { $0 == .rxmSFRBX }.count == tracked.count)
    // The F9P measures L1 C/A and L2 CL (sigId 0 and 3) of each satellite, L2 where its C/N0,
    // 4 dB below L1's, is at least 20 dB-Hz.
    let signals = tracked.map { ($0.snr ?? 0) - 4 >= 20 ? [0, 3] : [0] }
    let raw = try #require(frames.first)
    #expect(raw.payload.count == 16 + 32 * signals.joined().count)
    #expect(signals.contains { $0.count == 1 } && signals.contains { $0.count == 2 })
    let decoded = try UBXNavigationEncoderTests.decode(frames.flatMap(\.bytes))
    #expect((decoded["errors"] as? [Any])?.isEmpty == true, "\(decoded["errors"] ?? "")")
    let messages = try #require(decoded["messages"] as? [[String: Any]])
    #expect(messages.map { $0["identity"] as? String } == types.map(\.name))
    let rawx = raw.payload
    let measured = (0..<signals.joined().count).map { index in
      [Int(rawx[16 + 32 * index + 21]), Int(rawx[16 + 32 * index + 22])]
    }
    #expect(
      measured
        == zip(tracked, signals).flatMap { satellite, ids in ids.map { [satellite.id, $0] } })
  }

  @Test(arguments: [ReceiverProfile.ubloxF9P, .ubloxM8])
  func subframesGoOutOnlyWhenOneEndsAndLegacyCFGMSGWorksToo(profile: ReceiverProfile) {
    let commands = [
      UBXFrame(.cfgMSG, payload: [0x02, 0x15, 1]), UBXFrame(.cfgMSG, payload: [0x02, 0x13, 1]),
    ]
    let later = Self.subframeEnd.adding(nanoseconds: 2_000_000_000)
    #expect(
      Self.frames(after: commands, at: later, profile: profile).map(\.messageType) == [.rxmRAWX])
    let atEnd = Self.frames(after: commands, at: Self.subframeEnd, profile: profile)
    #expect(atEnd.filter { $0.messageType == .rxmSFRBX }.count > 4)
    #expect(Self.frames(after: [], at: Self.subframeEnd, profile: profile).isEmpty)
  }

  /// Over one 30 s frame at 1 Hz under GPS, Galileo and BeiDou, each tracked satellite's
  /// navigation message comes in its parts as they end: five LNAV subframes (ending on GPS
  /// time's multiples of 6 s), fifteen I/NAV page pairs of eight words on E1-B (sigId 1, every
  /// 2 s), five D1 subframes of ten words (ending on BDT's multiples of 6 s, GPS time 14 s
  /// ahead); RAWX measures two signals of each system.
  @Test func eachSystemsMessageComesInItsPartsOnItsOwnTimeScale() throws {
    let sky = OrbitalSky.nominal(
      constellations: [.gps, .galileo, .beidou], seed: 2, channelLimit: 184)
    var handler = UbloxCommandHandler(profile: .ubloxF9P)
    _ = handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0x02, 0x13, 1])))
    _ = handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0x02, 0x15, 1])))
    var encoder = UBXNavigationEncoder(profile: .ubloxF9P)
    encoder.rawMeasurements = UBXRawMeasurementEncoder(
      satellites: sky.orbitingSatellites, seed: 2, epochPeriodSeconds: 1)
    var parts: [String: [Int]] = [:]
    var signals: Set<[UInt8]> = []
    for second in 0..<30 {
      let time = Self.subframeEnd.adding(nanoseconds: Int64(second) * 1_000_000_000)
      var fix = Self.fix(at: time)
      fix.satellites = sky.satellites(at: time, from: Self.place)
      for frame in encoder.frames(for: fix, output: handler.output, epochIndex: second) {
        let payload = frame.payload
        if frame.messageType == .rxmRAWX {
          for index in 0..<Int(payload[11]) {
            signals.insert([payload[16 + 32 * index + 20], payload[16 + 32 * index + 22]])
          }
          continue
        }
        let key = "\(payload[0])/\(payload[1])/sig\(payload[2])/words\(payload[4])"
        parts[key, default: []].append(second)
      }
    }
    #expect(signals == [[0, 0], [0, 3], [2, 0], [2, 6], [3, 0], [3, 2]])
    // 2026-01-01 00:00:18 GPS is 345,618 s into the week: LNAV ends at +0, +6…; BDT is
    // 345,604: D1 ends at +2, +8…; I/NAV at every even second.
    // Each satellite's parts on its system's schedule (a satellite whose C/N0 crosses the
    // 20 dB-Hz it is tracked at sends only some), most satellites every one of them.
    let schedules: [(prefix: String, suffix: String, seconds: [Int])] = [
      ("0/", "/sig0/words10", [0, 6, 12, 18, 24]),
      ("2/", "/sig1/words8", Array(stride(from: 0, to: 30, by: 2))),
      ("3/", "/sig0/words10", [2, 8, 14, 20, 26]),
    ]
    for (prefix, suffix, seconds) in schedules {
      let system = parts.filter { $0.key.hasPrefix(prefix) }
      #expect(system.allSatisfy { $0.key.hasSuffix(suffix) }, "\(system.keys.sorted())")
      #expect(system.values.allSatisfy { Set($0).isSubset(of: seconds) && $0 == $0.sorted() })
      #expect(system.values.filter { $0 == seconds }.count >= 4, "\(prefix) \(system)")
    }
  }

  /// At one epoch every 4 s each Galileo satellite sends the two page pairs that ended since
  /// the epoch before, the older first; a satellite below 20 dB-Hz sends none.
  @Test func aSlowRateSendsEveryPartThatEndedAndWeakSatellitesNone() throws {
    let sky = OrbitalSky.nominal(constellations: [.galileo], seed: 2, channelLimit: 184)
    let encoder = UBXRawMeasurementEncoder(
      satellites: sky.orbitingSatellites, seed: 2, epochPeriodSeconds: 4)
    var satellites = sky.satellites(at: Self.subframeEnd, from: Self.place)
    satellites = satellites.filter { $0.snr != nil }
    try #require(satellites.count >= 4)
    satellites[0].snr = 19
    let frames = encoder.subframes(at: Self.subframeEnd, tracked: satellites)
    let numbers = frames.map { Int($0.payload[1]) }
    #expect(numbers == satellites.dropFirst().flatMap { [$0.id, $0.id] })
    // The two pairs are the subframe's positions before the epoch: their word types are the
    // top byte of each first word (U4, little-endian) past the even/odd and page type bits.
    let start = GPSTime(Self.subframeEnd).secondsOfWeek
    let expected = [start - 4, start - 2].map {
      GalileoINAVMessage.wordType(pagePairStartingAt: $0)
    }
    #expect(frames.prefix(2).map { Int($0.payload[11] & 0x3F) } == expected)
  }

  /// NAV-CLOCK reports the clock whose bias the pseudoranges carry.
  @Test func navClockAndTheMeasurementsShareOneClock() {
    let encoder = UBXRawMeasurementEncoder(satellites: Self.sky.orbitingSatellites, seed: 2)
    #expect(encoder.engine.clock == UBXNavigationEncoder.receiverClock)
  }

  @Test func onlyTheF9PAndTheM8HaveRawMeasurements() {
    #expect(
      ReceiverProfile.all.filter(UBXRawMeasurementEncoder.isAvailable(on:)).map(\.name) == [
        "ublox-m8", "ublox-f9p",
      ])
  }

  /// At 10 Hz a subframe goes out in the one epoch after it ends, not in the nine after it:
  /// the source's epoch period reaches the raw measurements when a client changes the rate.
  @Test func aRateChangeReachesTheSubframeTiming() {
    var encoder = ReceiverEncoder(profile: .ubloxF9P, constellations: [.gps])
    encoder.output = OutputSelection(nmea: [:], ubx: [.rxmSFRBX: 1])
    encoder.ubx.rawMeasurements = UBXRawMeasurementEncoder(
      satellites: Self.sky.orbitingSatellites, seed: 2)
    var source = SceneSource(
      scene: Scene(motion: FixedPosition(Self.place), sky: Self.sky), encoder: encoder)
    source.epochPeriodNanoseconds = 100_000_000
    #expect(source.encoder.ubx.rawMeasurements?.epochPeriodSeconds == 0.1)
    let counts = (0..<10).map { tenth in
      source.epoch(at: Self.subframeEnd.adding(nanoseconds: Int64(tenth) * 100_000_000)).packets
        .count
    }
    #expect(counts[0] > 4)
    #expect(counts.dropFirst().allSatisfy { $0 == 0 }, "\(counts)")
  }
}
