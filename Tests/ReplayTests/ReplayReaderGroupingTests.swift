import TestFixtures
import Testing
import UBX
import Wire

@testable import Replay

/// The grouping of packets into epochs, on packets built by hand: UBX frames, mixed logs.
/// (The placeholder splitter frames no binary protocol, so binary logs are tested here.)
@Suite(.blocking) struct ReplayReaderGroupingTests {
  typealias Support = ReplayReaderTestSupport

  static func navigation(id: UInt8, iTOW: UInt32) -> LogPacket {
    let payload =
      withUnsafeBytes(of: iTOW.littleEndian, Array.init) + [UInt8](repeating: 0, count: 24)
    return LogPacket(
      kind: .ubx, bytes: UBXFrame(messageClass: 0x01, id: id, payload: payload).bytes, line: 1)
  }

  static let monitor = LogPacket(
    kind: .ubx, bytes: UBXFrame(messageClass: 0x0A, id: 0x04, payload: [1, 2]).bytes, line: 1)
  static let sirf = LogPacket(kind: .sirf, bytes: [0xA0, 0xA2, 0, 1, 2, 0, 2, 0xB0, 0xB3], line: 1)

  static func nmea(_ text: String) -> LogPacket {
    LogPacket(kind: .nmea, bytes: Array(text.utf8), line: 1)
  }

  static func group(_ packets: [LogPacket], bestSource: LogTime.Source? = nil)
    -> [ReplayEpochGrouper.Group]
  {
    var grouper = ReplayEpochGrouper(bestSource: bestSource)
    var groups = packets.compactMap { grouper.add($0) }
    if let last = grouper.finish() { groups.append(last) }
    return groups
  }

  @Test func ubxNavigationFramesStartAnEpochWhenTheirITOWChanges() {
    let groups = Self.group([
      Self.navigation(id: 0x07, iTOW: 1000), Self.navigation(id: 0x03, iTOW: 1000),
      Self.monitor, Self.navigation(id: 0x07, iTOW: 1200), Self.navigation(id: 0x03, iTOW: 1200),
    ])
    #expect(groups.map(\.packets.count) == [3, 2])
    #expect(groups.map { $0.time?.nanoseconds } == [1_000_000_000, 1_200_000_000])
    #expect(groups.allSatisfy { $0.time?.scale == .timeOfWeek })
  }

  /// ublox-zed-f9p-hp's cycle: NAV-HPPOSECEF and NAV-HPPOSLLH carry iTOW after a version.
  @Test func highPrecisionFramesReadITOWAfterTheirVersion() {
    let highPrecision = { (id: UInt8, iTOW: UInt32) in
      let payload =
        [2, 0, 0, 0] + withUnsafeBytes(of: iTOW.littleEndian, Array.init)
        + [UInt8](repeating: 0, count: 28)
      return LogPacket(
        kind: .ubx, bytes: UBXFrame(messageClass: 0x01, id: id, payload: payload).bytes, line: 1)
    }
    let groups = Self.group([
      Self.navigation(id: 0x07, iTOW: 1000), highPrecision(0x13, 1000), highPrecision(0x14, 1000),
      Self.navigation(id: 0x07, iTOW: 2000), highPrecision(0x14, 2000),
    ])
    #expect(groups.map(\.packets.count) == [3, 2])
  }

  @Test func otherBinaryPacketsAreEpochsOfTheirOwnWithoutTime() {
    let groups = Self.group([Self.sirf, Self.sirf, Self.monitor])
    #expect(groups.map(\.packets.count) == [1, 1, 1])
    #expect(groups.allSatisfy { $0.time == nil })
  }

  @Test func nmeaTimesPaceALogAndUBXFramesJoinTheCurrentEpoch() {
    let groups = Self.group(
      [
        Self.nmea(Support.epochText(centiseconds: 100)), Self.navigation(id: 0x07, iTOW: 5000),
        Self.navigation(id: 0x07, iTOW: 6000), Self.nmea(Support.epochText(centiseconds: 200)),
      ], bestSource: .nmeaPrimary)
    #expect(groups.map(\.packets.count) == [3, 1])
    #expect(groups.map { $0.time?.scale } == [.timeOfDay, .timeOfDay])
  }

  /// UBX frames before a timed log's first time go out with the epoch that time starts (under
  /// `--time now`, moved with it), not as an untimed epoch sent as it was.
  @Test func ubxFramesBeforeTheFirstTimeJoinTheFirstTimedEpoch() {
    let comment = LogPacket(kind: .comment, bytes: Array("# Name: x\n".utf8), line: 1)
    let groups = Self.group(
      [
        comment, Self.navigation(id: 0x22, iTOW: 5000), Self.monitor,
        Self.nmea(Support.epochText(centiseconds: 100)), Self.navigation(id: 0x22, iTOW: 6000),
        Self.nmea(Support.epochText(centiseconds: 200)),
      ], bestSource: .nmeaPrimary)
    #expect(groups.map(\.packets.count) == [1, 4, 1])
    #expect(groups.map { $0.time?.scale } == [nil, .timeOfDay, .timeOfDay])
    // A SiRF frame in between still stands alone; a log of unknown times is grouped as before.
    let other = Self.group(
      [Self.monitor, Self.sirf, Self.monitor, Self.nmea(Support.epochText(centiseconds: 100))],
      bestSource: .nmeaPrimary)
    #expect(other.map(\.packets.count) == [1, 1, 2])
    #expect(Self.group([Self.monitor, Self.nmea(Support.epochText(centiseconds: 100))]).count == 2)
  }

  @Test func zdaPacesALogOnlyWhenNothingBetterDoes() {
    let zda = { (time: String) in Self.nmea(Support.sentence("GPZDA,\(time),15,03,2024,00,00")) }
    let alone = Self.group([zda("120000.00"), zda("120001.00"), zda("120002.00")])
    #expect(
      alone.map { $0.time?.nanoseconds } == [43_200, 43_201, 43_202].map { $0 * 1_000_000_000 })
    let withGGA = Self.group(
      [Self.nmea(Support.epochText(centiseconds: 4_320_000)), zda("120000.50")],
      bestSource: .nmeaPrimary)
    #expect(withGGA.count == 1)
  }

  @Test func aPacketWithAProblemCarriesNoTime() {
    var broken = Self.nmea(Support.sentence("GPGGA,120005.00,5155.55442,N,00434.65873,E,1"))
    broken.problem = .badChecksum
    let groups = Self.group([Self.nmea(Support.sentence("GPGGA,120000.00,,,,,0")), broken])
    #expect(groups.count == 1)
  }
}

/// Log times to offsets.
@Suite(.blocking) struct LogClockTests {
  static func time(_ seconds: Double) -> LogTime {
    LogTime(
      nanoseconds: Int64((seconds * 1e9).rounded()), scale: .timeOfDay, source: .nmeaPrimary)
  }

  @Test func gapsAreBelievedUnlessTheyGoBackOrExceedAnHour() {
    var clock = LogClock()
    let offsets = [10, 10.5, 11, 5, 6, 7200, 7201].map { clock.offset(for: Self.time($0)) }
    #expect(offsets == [0, 0.5, 1, 1.5, 2.5, 3.5, 4.5].map { Int64($0 * 1e9) })
    #expect(clock.timeJumps == 2)
  }

  @Test func midnightIsTheNextDay() {
    var clock = LogClock()
    let offsets = [86_399, 0, 1].map { clock.offset(for: Self.time($0)) }
    #expect(offsets == [0, 1_000_000_000, 2_000_000_000])
    #expect(clock.timeJumps == 0)
    #expect(clock.logElapsedNanoseconds == 2_000_000_000)
  }

  @Test func aRestartComesOneTypicalGapAfterTheLastEpoch() {
    var clock = LogClock()
    _ = [0, 0.2, 0.4].map { clock.offset(for: Self.time($0)) }
    clock.restart()
    #expect(clock.offset(for: Self.time(0)) == 600_000_000)
    #expect(clock.isAnchor)
    #expect(clock.offset(for: Self.time(0.2)) == 800_000_000)
  }

  @Test func daysSince1970MatchKnownDates() {
    #expect(LiveTimeShift.daysSince1970(LogHeader.Day(year: 1970, month: 1, day: 1)) == 0)
    #expect(LiveTimeShift.daysSince1970(LogHeader.Day(year: 2000, month: 3, day: 1)) == 11_017)
    #expect(LiveTimeShift.daysSince1970(LogHeader.Day(year: 2025, month: 12, day: 1)) == 20_423)
  }
}
