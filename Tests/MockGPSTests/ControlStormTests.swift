import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import Synchronization
import SystemIO
import TestFixtures
import Testing

/// What a client of the control socket does to it does not disturb the epochs nor the other
/// clients: 1,000 connections opened and dropped, a 10 MB line, and 10,000 requests a second
/// from one client, while a reader of the device counts every epoch.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct ControlStormTests {
  @Test func aStormOfClientsLosesNoEpochAndDelaysNoOtherClient() throws {
    // The 10 MB line below is refused at its start and skipped as it comes; the request
    // deadline (10 s by default) counts the skipping, so on a loaded machine it disconnected the
    // sender before its next request (CI's loaded run: `after` was not the status; here 10 MB
    // took 0.84 s beside two hogs and the suite, and a deadline of 0.5 s broke the sender's
    // pipe). The deadline has tests of its own: here it is out of the way.
    let running = try ControlledEmulator(rateHz: 10, baud: 115_200, requestDeadlineSeconds: 300)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    #expect(reader.readUntil(type: "GGA", timeoutSeconds: 5) != nil)
    let before = running.emulator.statistics
    let stolen = try StealWatch.start()
    defer { stolen.stop() }
    let ggaTimes = Mutex<[Int]>([])
    let stopReading = Atomic<Bool>(false)
    let readerBox = SharedForTest(reader)
    let readerThread = Thread {
      let reader = readerBox.value
      while !stopReading.load(ordering: .relaxed) {
        if let line = reader.readUntil(type: "GGA", timeoutSeconds: 0.5),
          let time = Self.centisecondsOfDay(gga: line.text)
        {
          ggaTimes.withLock { $0.append(time) }
        }
      }
    }
    readerThread.start()

    // A well-behaved client asks for the status throughout and must always be answered.
    let bystander = try ControlTestClient(path: running.controlPath)
    let bystanderReplies = Atomic<Int>(0)
    let bystanderAsked = Atomic<Int>(0)
    let stopBystander = Atomic<Bool>(false)
    let bystanderBox = SharedForTest(bystander)
    let bystanderThread = Thread {
      let bystander = bystanderBox.value
      while !stopBystander.load(ordering: .relaxed) {
        bystanderAsked.add(1, ordering: .relaxed)
        if (try? bystander.request(#"{"cmd":"status"}"#))??.hasPrefix(#"{"ok":true"#) == true {
          bystanderReplies.add(1, ordering: .relaxed)
        }
        usleep(100_000)
      }
    }
    bystanderThread.start()

    // 1,000 connections opened and dropped, half of them in the middle of a line; the server
    // keeps none of them: only the bystander is still a client (counted by the server itself,
    // not in /proc/self/fd, which the tests running alongside change).
    for index in 0..<1_000 {
      let client = try ControlTestClient(path: running.controlPath)
      if index % 2 == 0 { try client.send(#"{"cmd":"posi"#) }
      client.close()
    }
    var clientsLeft = ""
    for _ in 0..<250 {
      clientsLeft = running.emulator.handle(.status).line
      if clientsLeft.contains(#""control_clients":1,"#) { break }
      usleep(20_000)
    }
    #expect(clientsLeft.contains(#""control_clients":1,"#), "connections left: \(clientsLeft)")

    // A 10 MB line, then a request that must still be answered.
    let bigSender = try ControlTestClient(path: running.controlPath)
    let chunk = String(repeating: "x", count: 1 << 20)
    let bigStart = DeviceReader.monotonicNanoseconds()
    for _ in 0..<10 { try bigSender.send(chunk) }
    let bigMilliseconds = (DeviceReader.monotonicNanoseconds() - bigStart) / 1_000_000
    try bigSender.send("\n" + #"{"cmd":"status","id":"after"}"# + "\n")
    let refusal = bigSender.line(within: 10)
    let after = bigSender.line(within: 10)

    // 10,000 requests a second from one client for 3 seconds, replies read as they come,
    // until every request sent has its reply (or none comes for 5 s).
    let flooder = try ControlTestClient(path: running.controlPath)
    let floodReplies = Atomic<Int>(0)
    let floodSent = Atomic<Int>(-1)
    let flooderBox = SharedForTest(flooder)
    let floodReader = Thread {
      let flooder = flooderBox.value
      while let line = flooder.line(within: 5) {
        if line.hasPrefix("{\"ok\":true") { floodReplies.add(1, ordering: .relaxed) }
        let sent = floodSent.load(ordering: .relaxed)
        if sent >= 0 && floodReplies.load(ordering: .relaxed) >= sent { break }
      }
    }
    floodReader.start()
    let batch = String(
      repeating: #"{"cmd":"position","lat":48.85,"lon":2.35}"# + "\n" + #"{"cmd":"status"}"# + "\n",
      count: 50)
    let start = DeviceReader.monotonicNanoseconds()
    var sent = 0
    while DeviceReader.monotonicNanoseconds() - start < 3_000_000_000 {
      // 100 requests every 10 ms: 10,000 a second.
      let due = start + Int64(sent / 100) * 10_000_000
      let now = DeviceReader.monotonicNanoseconds()
      if due > now { usleep(UInt32((due - now) / 1_000)) }
      try flooder.send(batch)
      sent += 100
    }
    floodSent.store(sent, ordering: .relaxed)
    let floodNanoseconds = DeviceReader.monotonicNanoseconds() - start
    let floodDeadline = DeviceReader.monotonicNanoseconds() + 10_000_000_000
    while floodReplies.load(ordering: .relaxed) < sent,
      DeviceReader.monotonicNanoseconds() < floodDeadline
    {
      usleep(10_000)
    }

    stopBystander.store(true, ordering: .relaxed)
    usleep(300_000)
    // The counts are taken while the reader still reads, and only the epochs it read before
    // are judged: once it stops, its unread epochs fill the terminal (4 KiB, about 0.8 s at
    // 10 Hz), and the chip drops the next as a UART overruns. Taken after a pause of 0.7 s, a
    // loaded machine's delay of the pause counted two such drops (helper-108's reading).
    let readBeforeCounts = ggaTimes.withLock { $0.count }
    let statistics = running.emulator.statistics
    stopReading.store(true, ordering: .relaxed)
    usleep(700_000)

    #expect(
      refusal?.hasPrefix(#"{"ok":false,"error":"request line longer"#) == true,
      "\(refusal ?? "no reply")")
    #expect(after?.hasPrefix(#"{"ok":true,"id":"after""#) == true, "\(after ?? "no reply")")
    #expect(floodReplies.load(ordering: .relaxed) == sent, "every flood request answered")
    // The pace is 10,000 a second; a loaded machine (or a debug build) answers fewer, and the
    // client then waits on a full socket: that is the server keeping its bound, not a failure.
    #expect(sent >= 1_000)
    #expect(
      bystanderReplies.load(ordering: .relaxed) >= bystanderAsked.load(ordering: .relaxed) - 1)
    // How many it asked depends on the machine's pace; that it was answered is the point.
    #expect(bystanderReplies.load(ordering: .relaxed) > 0)

    let times = ggaTimes.withLock { Array($0.prefix(readBeforeCounts)) }
    // No epoch late or cut but for the time the hypervisor took (`StealWatch`): the epoch thread
    // lets an epoch go only when it could not run for half the 100 ms period.
    let late = statistics.epochsLate - before.epochsLate
    let cut = statistics.burstsCut - before.burstsCut
    #expect(
      stolen.explains(late + cut, lateBeyondNanoseconds: 50_000_000),
      "\(late) epochs late, \(cut) cut, with \(stolen.milliseconds) ms of CPU stolen")
    #expect(statistics.epochsOverrun == before.epochsOverrun, "no epoch dropped")
    // Epochs are told apart by the time they carry (arrival times move with the machine's
    // load): every tenth of a second from the first read to the last, each once, but for the
    // late or cut ones.
    let first = try #require(times.first)
    let last = try #require(times.last)
    let span = (last - first + 8_640_000) % 8_640_000
    let expected = span / 10 + 1
    #expect(
      times.count <= expected && expected - times.count <= late + cut,
      "read \(times.count) epochs over \(span) cs, \(late) late, \(cut) cut")
    #expect(Set(times).count == times.count, "no epoch read twice")
    // The reader read through the whole flood: the epochs it read span it (a count such as
    // "more than 40" measured how fast the server answered, not what the reader saw).
    #expect(
      Int64(span) * 10_000_000 >= floodNanoseconds - 100_000_000,
      "epochs read over \(span) cs, the flood lasted \(floodNanoseconds / 1_000_000) ms")
    print(
      "storm: \(sent) flood requests answered in \(floodNanoseconds / 1_000_000) ms, \(times.count) epochs read of \(expected), "
        + "\(bystanderReplies.load(ordering: .relaxed)) bystander replies, "
        + "\(stolen.milliseconds) ms stolen, the 10 MB line sent in \(bigMilliseconds) ms")
  }
}

extension ControlStormTests {
  /// The time of a GGA sentence, in hundredths of a second since midnight.
  static func centisecondsOfDay(gga: String) -> Int? {
    let fields = gga.split(separator: ",", omittingEmptySubsequences: false)
    guard fields.count > 1, fields[1].count >= 6,
      let hours = Int(fields[1].prefix(2)),
      let minutes = Int(fields[1].dropFirst(2).prefix(2)),
      let seconds = Double(fields[1].dropFirst(4))
    else { return nil }
    return (hours * 60 + minutes) * 6_000 + Int((seconds * 100).rounded())
  }
}
