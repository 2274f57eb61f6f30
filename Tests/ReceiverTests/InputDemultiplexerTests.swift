import Receiver
import TestFixtures
import Testing
import UBX

@Suite struct InputDemultiplexerTests {
  /// The MON-VER poll gpsd sends to identify a u-blox receiver.
  static let monVERPoll: [UInt8] = [0xB5, 0x62, 0x0A, 0x04, 0x00, 0x00, 0x0E, 0x34]
  /// CFG-RATE to 200 ms, bytes from pyubx2 1.4.0 (see `UBXFrameTests`).
  static let cfgRATE5Hz: [UInt8] = [
    0xB5, 0x62, 0x06, 0x08, 0x06, 0x00, 0xC8, 0x00, 0x01, 0x00, 0x01, 0x00, 0xDE, 0x6A,
  ]
  /// The same with its last checksum byte off by one; none of its bytes is CR or LF.
  static let cfgRATEBadChecksum: [UInt8] = cfgRATE5Hz.dropLast() + [0x6B]

  /// Lines from gpsd's `neo-m8n.log` (a u-blox NEO-M8N) and commands gpsd writes to receivers.
  static let realLines = [
    "$GLGSV,3,3,10,83,27,309,29,84,01,353,*63",
    "$GNGLL,4404.14066,N,12118.85481,W,171925.00,A,A*66",
    "$GNRMC,171926.00,A,4404.14063,N,12118.85478,W,0.117,,180315,,,A*76",
    "$GNVTG,,T,,M,0.117,N,0.216,K,A*3F",
    "$GNGGA,171926.00,4404.14063,N,12118.85478,W,1,12,0.91,1147.2,M,-21.3,M,,*44",
    "$PMTK605*31",
    "$PMTK220,200*2C",
    "$PUBX,00*33",
  ]

  static func demultiplex(_ bytes: [UInt8]) -> (messages: [ClientMessage], discarded: Int) {
    var demultiplexer = InputDemultiplexer()
    let messages = demultiplexer.append(bytes)
    return (messages, demultiplexer.discardedByteCount)
  }

  @Test func theMONVERPollIsAFrameNotGarbage() {
    let result = Self.demultiplex(Self.monVERPoll)
    #expect(result.messages == [.ubx(UBXFrame(.monVER))])
    #expect(result.discarded == 0)
  }

  @Test func linesAndFramesComeOutInTheOrderWritten() {
    let bytes =
      Array("$PMTK605*31\r\n".utf8) + Self.cfgRATE5Hz + Array("$PUBX,00*33\r\n".utf8)
      + Self.monVERPoll
    #expect(
      Self.demultiplex(bytes).messages == [
        .nmea("$PMTK605*31"),
        .ubx(UBXFrame(.cfgRATE, payload: [0xC8, 0x00, 0x01, 0x00, 0x01, 0x00])),
        .nmea("$PUBX,00*33"), .ubx(UBXFrame(.monVER)),
      ])
  }

  @Test func aFrameWithABadChecksumIsGarbageAndScanningResumesAfterItsSync() {
    let result = Self.demultiplex(Self.cfgRATEBadChecksum + Self.monVERPoll)
    #expect(result.messages == [.ubx(UBXFrame(.monVER))])
    #expect(result.discarded == Self.cfgRATEBadChecksum.count)
  }

  @Test func messagesInsideAFalseFrameAreFoundAgain() {
    // Garbage that looks like a sync and announces 40 payload bytes swallows the next line and
    // frame; its checksum fails and they are read again.
    let falseHeader: [UInt8] = [0xB5, 0x62, 0x01, 0x02, 0x28, 0x00]
    let bytes =
      falseHeader + Array("$PMTK605*31\r\n".utf8) + Self.monVERPoll
      + Array("xxxxxxxxxxxxxxxxxxxxxxxxxxxx".utf8)
    let result = Self.demultiplex(bytes)
    #expect(result.messages == [.nmea("$PMTK605*31"), .ubx(UBXFrame(.monVER))])
    #expect(result.discarded == falseHeader.count + 28)
  }

  @Test func aLengthBeyondTheMaximumIsGarbageAtOnce() {
    let header: [UInt8] = [0xB5, 0x62, 0x06, 0x08, 0x01, 0x10]  // 4097 bytes announced
    let result = Self.demultiplex(header + Self.monVERPoll)
    #expect(result.messages == [.ubx(UBXFrame(.monVER))])
    #expect(result.discarded == header.count)
  }

  @Test func aSyncInsideALineDropsTheLine() {
    let bytes = Array("$GNGGA,1719".utf8) + Self.monVERPoll + Array("\r\n$PMTK605*31\r\n".utf8)
    let result = Self.demultiplex(bytes)
    #expect(result.messages == [.ubx(UBXFrame(.monVER)), .nmea("$PMTK605*31")])
    #expect(result.discarded == 11)
  }

  @Test func aLoneSyncStartByteIsGarbage() {
    let bytes = [0xB5] + Array("$PMTK605*31\r\n".utf8) + [0xB5, 0xB5] + Self.monVERPoll
    let result = Self.demultiplex(bytes)
    #expect(result.messages == [.nmea("$PMTK605*31"), .ubx(UBXFrame(.monVER))])
    #expect(result.discarded == 3)
  }

  @Test func overlongLinesAreDropped() {
    var demultiplexer = InputDemultiplexer(maximumLineLength: 20)
    let bytes = Array(("$GPGSV," + String(repeating: "1", count: 40) + "\r\n$PMTK605*31\r\n").utf8)
    #expect(demultiplexer.append(bytes) == [.nmea("$PMTK605*31")])
    #expect(demultiplexer.discardedByteCount == 47)
  }

  @Test func anUnfinishedFrameWaitsForItsBytes() {
    var demultiplexer = InputDemultiplexer()
    #expect(demultiplexer.append(Self.cfgRATE5Hz.prefix(13)).isEmpty)
    #expect(demultiplexer.append(Self.cfgRATE5Hz.suffix(1)).count == 1)
    #expect(demultiplexer.discardedByteCount == 0)
  }

  @Test(arguments: [1, 7, 42, 2026] as [UInt64])
  func sameMessagesWhetherBytesArriveWholeOneByOneOrInRandomChunks(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    let stream = MixedStream(pieces: 400, using: &generator)

    var whole = InputDemultiplexer()
    #expect(whole.append(stream.bytes) == stream.messages)
    #expect(whole.discardedByteCount == stream.discarded)

    var oneByOne = InputDemultiplexer()
    var oneByOneMessages: [ClientMessage] = []
    for byte in stream.bytes { oneByOneMessages += oneByOne.append([byte]) }
    #expect(oneByOneMessages == stream.messages)
    #expect(oneByOne.discardedByteCount == stream.discarded)

    var chunked = InputDemultiplexer()
    var chunkedMessages: [ClientMessage] = []
    var index = 0
    while index < stream.bytes.count {
      let end = min(stream.bytes.count, index + Int(generator.next() % 97) + 1)
      chunkedMessages += chunked.append(stream.bytes[index..<end])
      index = end
    }
    #expect(chunkedMessages == stream.messages)
    #expect(chunked.discardedByteCount == stream.discarded)
  }
}

/// Real lines, UBX frames and garbage in a random order, with the messages and the count of
/// discarded bytes a demultiplexer must report.
struct MixedStream {
  var bytes: [UInt8] = []
  var messages: [ClientMessage] = []
  var discarded = 0

  init(pieces: Int, using generator: inout SplitMix64) {
    let frames = [
      UBXFrame(.monVER), UBXFrame(.cfgRATE, payload: [0xC8, 0x00, 0x01, 0x00, 0x01, 0x00]),
      UBXFrame(messageClass: 0x13, id: 0x40, payload: (0..<300).map { UInt8($0 % 256) }),
    ]
    // Garbage that can neither start a line or a frame nor end a line.
    let garbage = (0...255).map(UInt8.init).filter { ![0x24, 0x21, 0x0D, 0x0A, 0xB5].contains($0) }
    for _ in 0..<pieces {
      switch generator.next() % 6 {
      case 0, 1:
        let line = InputDemultiplexerTests.realLines.randomElement(using: &generator) ?? ""
        bytes += Array(line.utf8) + [0x0D, 0x0A]
        messages.append(.nmea(line))
      case 2:
        let frame = frames.randomElement(using: &generator) ?? UBXFrame(.monVER)
        bytes += frame.bytes
        messages.append(.ubx(frame))
      case 3:
        let count = Int(generator.next() % 20) + 1
        bytes += (0..<count).map { _ in garbage.randomElement(using: &generator) ?? 0 }
        discarded += count
      case 4:
        bytes += InputDemultiplexerTests.cfgRATEBadChecksum
        discarded += InputDemultiplexerTests.cfgRATEBadChecksum.count
      default:
        let cut = Array("$GNGGA,171926.00,4404".utf8)
        bytes += cut + InputDemultiplexerTests.monVERPoll
        discarded += cut.count
        messages.append(.ubx(UBXFrame(.monVER)))
      }
    }
  }
}
