import Foundation
import TestFixtures
import Testing

@testable import Replay

/// `--time now`: the shift the reader gives the rewriter so that each epoch shows the time it
/// goes out at.
@Suite(.blocking) struct ReplayReaderTimeNowTests {
  typealias Support = ReplayReaderTestSupport
  static let live: Int64 = 1_764_540_000_250_000_000

  static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int)
    throws -> Int64
  {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    let components = DateComponents(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    let date = try #require(calendar.date(from: components))
    return Int64(date.timeIntervalSince1970) * 1_000_000_000
  }

  @Test func theDateHeaderGivesTheExactShift() throws {
    // ublox-lea-5h: `# Date: 2010-08-23`, first fix 08:37:23.00 (its RMCs say 21 August: the
    // header wins).
    let path = try ReplayReaderCorpusTests.logPath("ublox-lea-5h.log")
    let reader = try ReplayReader(path: path, options: ReplayOptions(time: .now))
    reader.begin(liveStartNanoseconds: Self.live)
    while let epoch = try reader.next(), epoch.offsetNanoseconds == nil {}
    #expect(
      reader.rewriter.timeShiftNanoseconds == Self.live - (try Self.utc(2010, 8, 23, 8, 37, 23)))
  }

  @Test func theDateOfAnRMCIsUsedWithoutAHeader() throws {
    let text = Support.epochText(centiseconds: 4_320_050, date: "150324")
    let path = try Support.temporaryLog(Array(text.utf8))
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path, options: ReplayOptions(time: .now))
    reader.begin(liveStartNanoseconds: Self.live)
    _ = try reader.next()
    let logTime = try Self.utc(2024, 3, 15, 12, 0, 0) + 500_000_000
    #expect(reader.rewriter.timeShiftNanoseconds == Self.live - logTime)
  }

  @Test func aDateMetAfterTheFirstEpochMovesTheShiftByWholeDays() throws {
    // A lone GGA first (no date: taken as today's), then epochs whose RMC says 15 March 2024.
    let lone = Support.sentence(
      "GPGGA,\(Support.timeField(centiseconds: 4_320_000)),5155.55442,N,00434.65873,E,1,06,"
        + "2.51,-4.0,M,46.0,M,,")
    let text = lone + Support.epochText(centiseconds: 4_320_100, date: "150324")
    let path = try Support.temporaryLog(Array(text.utf8))
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path, options: ReplayOptions(time: .now))
    reader.begin(liveStartNanoseconds: Self.live)
    _ = try reader.next()
    let firstShift = reader.rewriter.timeShiftNanoseconds
    _ = try reader.next()
    // 12:00:01 on 15 March 2024 is shown one second after the live start.
    let logTime = try Self.utc(2024, 3, 15, 12, 0, 1)
    #expect(reader.rewriter.timeShiftNanoseconds == Self.live + 1_000_000_000 - logTime)
    #expect((reader.rewriter.timeShiftNanoseconds - firstShift) % 86_400_000_000_000 == 0)
  }

  @Test func withoutADateTheLogIsTakenToBeOfToday() throws {
    let path = try Support.temporaryLog(ReplayReaderTests.tenHertzLog(count: 3))
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path, options: ReplayOptions(time: .now))
    reader.begin(liveStartNanoseconds: Self.live)
    _ = try reader.next()
    // 2025-11-30 22:00:00.25 live; the log starts at 12:00:00.00 of that day.
    let logTime = try Self.utc(2025, 11, 30, 12, 0, 0)
    #expect(reader.rewriter.timeShiftNanoseconds == Self.live - logTime)
    // Each epoch is shown at the time it goes out.
    let second = try #require(try reader.next()?.offsetNanoseconds)
    #expect(logTime + second + reader.rewriter.timeShiftNanoseconds == Self.live + second)
  }

  @Test func eachLoopAddsItsOffsetSoTimesNeverGoBack() throws {
    let path = try Support.temporaryLog(ReplayReaderTests.tenHertzLog(count: 4))
    defer { Support.remove(path) }
    let reader = try ReplayReader(
      path: path, options: ReplayOptions(time: .now, looping: true))
    reader.begin(liveStartNanoseconds: Self.live)
    var shifts: [Int64] = []
    for _ in 0..<12 {
      _ = try reader.next()
      shifts.append(reader.rewriter.timeShiftNanoseconds)
    }
    let base = Self.live - (try Self.utc(2025, 11, 30, 12, 0, 0))
    // Loop k starts at offset k × 400 ms (300 ms of log, then one 100 ms gap).
    #expect(shifts == (0..<12).map { base + Int64($0 / 4) * 400_000_000 })
  }

  @Test func aTimeGoingBackKeepsTheLiveTimesGoingForward() throws {
    let text =
      Support.epochText(centiseconds: 4_320_000) + Support.epochText(centiseconds: 4_320_100)
      + Support.epochText(centiseconds: 4_310_000) + Support.epochText(centiseconds: 4_310_100)
    let path = try Support.temporaryLog(Array(text.utf8))
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path, options: ReplayOptions(time: .now))
    reader.begin(liveStartNanoseconds: Self.live)
    let logTimes: [Int64] = [4_320_000, 4_320_100, 4_310_000, 4_310_100].map {
      Int64($0) * 10_000_000
    }
    let dayStart = try Self.utc(2025, 11, 30, 0, 0, 0)
    for logTime in logTimes {
      let offset = try #require(try reader.next()?.offsetNanoseconds)
      #expect(dayStart + logTime + reader.rewriter.timeShiftNanoseconds == Self.live + offset)
    }
    #expect(reader.statistics.timeJumps == 1)
  }

  @Test func aUBXLogShowsTheLiveWeekAndDateNotItsOwn() throws {
    // ublox-zed-f9p-hp: NAV-PVT and NAV-TIMEGPS of April 2019 (GPS week 2050). Taken to be of
    // the live week, its weeks and dates stayed April 2019's, its times of week moved.
    let path = try ReplayReaderCorpusTests.logPath("ublox-zed-f9p-hp.log")
    let reader = try ReplayReader(path: path, options: ReplayOptions(time: .now))
    reader.begin(liveStartNanoseconds: Self.live)
    var weeks: [Int] = []
    var dates: [[Int]] = []
    while weeks.count < 3 || dates.count < 3, let epoch = try reader.next() {
      for packet in epoch.packets where packet.kind == .ubx && packet.bytes[2] == 0x01 {
        let payload = Array(packet.bytes.dropFirst(6))
        switch packet.bytes[3] {
        case 0x20: weeks.append(Int(payload[8]) | Int(payload[9]) << 8)
        case 0x07:
          dates.append([Int(payload[4]) | Int(payload[5]) << 8, Int(payload[6]), Int(payload[7])])
        default: break
        }
      }
    }
    // 2025-11-30 22:00 UTC, a Sunday: GPS week 2395.
    #expect(weeks.prefix(3) == [2395, 2395, 2395])
    #expect(dates.prefix(3) == [[2025, 11, 30], [2025, 11, 30], [2025, 11, 30]])
  }
}
