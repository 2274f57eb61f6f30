import Foundation
import TestFixtures
import Testing
import UBX

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

  @Test func aMixedLogsFirstRMCAndTheFrameBeforeItShowTheLiveTime() throws {
    // ublox-zed-f9p_hpg1.11: UBX and NMEA; binary bytes with a `#` before the first RMC
    // (01:19:03 on 12 April 2019) made a comment of it, sent as it was under `--time now`, as
    // was the NAV-CLOCK before it, an untimed epoch of its own.
    let path = try ReplayReaderCorpusTests.logPath("ublox-zed-f9p_hpg1.11.log")
    let reader = try ReplayReader(path: path, options: ReplayOptions(time: .now))
    reader.begin(liveStartNanoseconds: Self.live)
    var sentences: [String] = []
    var firstFrame: [UInt8]?
    while sentences.count < 2, let epoch = try reader.next() {
      firstFrame = firstFrame ?? (epoch.packets.first { $0.kind == .ubx }?.bytes).map { Array($0) }
      sentences += epoch.packets.filter { $0.kind == .nmea && $0.bytes.count > 7 }.map {
        String(decoding: $0.bytes, as: UTF8.self)
      }.filter { $0.hasPrefix("$GNRMC") || $0.hasPrefix("$GNGGA") }
    }
    #expect(sentences.count == 2)
    // The NAV-CLOCK before that RMC (iTOW 436,761,000 ms, the same instant) goes out with it,
    // moved with it: 22:00:00.25 UTC on a Sunday is 79,218,250 ms into the GPS week.
    let frame = try #require(firstFrame)
    #expect(frame.prefix(4) == [0xB5, 0x62, 0x01, 0x22])
    #expect(frame.count > 10 && Array(frame[6..<10]) == Self.little(79_218_250, 4))
    // 2025-11-30 22:00:00.25 UTC, the live start.
    #expect(sentences.first?.hasPrefix("$GNRMC,220000.25,A,") == true, "\(sentences)")
    #expect(sentences.first?.contains(",301125,") == true, "\(sentences)")
    #expect(sentences.last?.hasPrefix("$GNGGA,220000.25,") == true, "\(sentences)")
  }

  /// Little-endian bytes of `value`'s low `count` bytes.
  static func little(_ value: Int, _ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }

  @Test func aLoopOfAUBXLogThatCrossedAWeeksEndKeepsTheLiveWeek() throws {
    // NAV-POSLLH from 604,795 s into GPS week 2100, over the week's end; NAV-TIMEGPS (its week
    // valid) only from the 8th epoch on, in week 2101. Every loop after the first showed week
    // 2394: the anchor put the log's first time of week into the week met after the end.
    var bytes: [UInt8] = []
    for index in 0..<12 {
      let timeOfWeek = (604_795_000 + index * 1_000) % 604_800_000
      bytes +=
        UBXFrame(.navPOSLLH, payload: Self.little(timeOfWeek, 4) + [UInt8](repeating: 0, count: 24))
        .bytes
      if index >= 8 {
        let payload =
          Self.little(timeOfWeek, 4) + [0, 0, 0, 0] + Self.little(2101, 2) + [18, 0x07]
          + [0, 0, 0, 0]
        bytes += UBXFrame(.navTIMEGPS, payload: payload).bytes
      }
    }
    let path = try Support.temporaryLog(bytes)
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path, options: ReplayOptions(time: .now, looping: true))
    reader.begin(liveStartNanoseconds: Self.live)
    var weeks: [Int] = []
    while weeks.count < 12, let epoch = try reader.next() {
      for packet in epoch.packets where packet.bytes.count > 15 && packet.bytes[3] == 0x20 {
        weeks.append(Int(packet.bytes[14]) | Int(packet.bytes[15]) << 8)
      }
    }
    // 2025-11-30 22:00 UTC, and the 12 s after it: GPS week 2395, three loops of four.
    #expect(weeks == [Int](repeating: 2395, count: 12))
  }

  @Test func aWeekOrDateOutOfRangeIsNoWeek() {
    let solution = { (week: Int) in
      UBXFrame(
        .navSOL,
        payload: [UInt8](repeating: 0, count: 8) + Self.little(week, 2) + [3, 0x0C]
          + [UInt8](repeating: 0, count: 40)
      ).bytes
    }
    #expect(LogTime.ubxWeek(solution(2100)[...]) == 2100)
    // Week 20,000 overflowed the shift's nanoseconds: the replay trapped.
    #expect(LogTime.ubxWeek(solution(20_000)[...]) == nil)
    var pvt = [UInt8](repeating: 0, count: 92)
    pvt.replaceSubrange(4..<8, with: Self.little(2300, 2) + [1, 1])
    pvt[11] = 0x03
    #expect(LogTime.ubxWeek(UBXFrame(.navPVT, payload: pvt).bytes[...]) == nil)
    pvt.replaceSubrange(4..<6, with: Self.little(2024, 2))
    #expect(LogTime.ubxWeek(UBXFrame(.navPVT, payload: pvt).bytes[...]) == 2295)
  }

  @Test func aWeekMetAfterHugeJumpsIsNoWeekNotATrap() throws {
    // Times of week stepping back 300,000 s each epoch, 7,700 times, then NAV-TIMEGPS of week
    // 11,479: the anchor's week, the met week less the log's summed gaps, overflowed.
    var bytes: [UInt8] = []
    for index in 0..<7_700 {
      let timeOfWeek = ((index * -300_000_000) % 604_800_000 + 604_800_000) % 604_800_000
      bytes +=
        UBXFrame(
          .navPOSLLH, payload: Self.little(timeOfWeek, 4) + [UInt8](repeating: 0, count: 24)
        ).bytes
    }
    let last = ((7_700 * -300_000_000) % 604_800_000 + 604_800_000) % 604_800_000
    bytes +=
      UBXFrame(
        .navTIMEGPS,
        payload: Self.little(last, 4) + [0, 0, 0, 0] + Self.little(11_479, 2) + [18, 0x07]
          + [0, 0, 0, 0]
      ).bytes
    let path = try Support.temporaryLog(bytes)
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path, options: ReplayOptions(time: .now))
    reader.begin(liveStartNanoseconds: Self.live)
    var epochs = 0
    while try reader.next() != nil { epochs += 1 }
    #expect(epochs == 7_701)
  }
}
