import Geodesy
import Replay
import UBX
import Wire

/// The `replay-log` target: the bytes as a log to replay. `LogPacketSplitter` gets them in
/// chunks whose sizes come from the first byte; the packets must join into the bytes, have a
/// line from 1, and a garbage packet must have a problem; fed whole (a whole sentence in the
/// chunk is framed at once) and byte by byte (never), the packets must be the same. The bytes
/// are rewritten as `--time now --move-to` replays them (`ReplayRewriter`), and go to
/// `RecordingParser` (whose records must hold no more than the bytes) and, line by line, to
/// `LogHeader.read(comment:)`, whose complaints must be one line.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  guard let first = bytes.first else { return }
  let input = Array(bytes.dropFirst())
  // Sizes 1 to 16, cycling through a pattern the first byte picks.
  let sizes = (0..<4).map { Int((first >> ($0 * 2)) & 0x0F) + 1 }
  var splitter = LogPacketSplitter()
  var joined: [UInt8] = []
  joined.reserveCapacity(input.count)
  var start = 0
  var turn = 0
  func check(_ packets: [LogPacket]) {
    for packet in packets {
      guard !packet.bytes.isEmpty, packet.line >= 1 else {
        failure("packet \(packet.kind) of \(packet.bytes.count) bytes on line \(packet.line)")
      }
      guard packet.kind != .garbage || packet.problem != nil else {
        failure("garbage packet without a problem")
      }
      joined += packet.bytes
    }
  }
  while start < input.count {
    let end = min(input.count, start + sizes[turn % sizes.count])
    check(splitter.packets(from: input[start..<end]))
    start = end
    turn += 1
  }
  check(splitter.finish())
  guard joined == input else {
    failure("packets join into \(joined.count) bytes, not the \(input.count) fed")
  }
  let whole = packets(of: input, inChunksOf: max(input.count, 1))
  let byteByByte = packets(of: input, inChunksOf: 1)
  for (index, (fedWhole, fedByteByByte)) in zip(whole, byteByByte).enumerated()
  where fedWhole != fedByteByByte {
    failure("packet \(index) fed whole: \(fedWhole); byte by byte: \(fedByteByByte)")
  }
  guard whole.count == byteByByte.count else {
    failure("\(whole.count) packets fed whole, \(byteByByte.count) byte by byte")
  }

  // Replayed with `--time now` and `--move-to`: a shift and a destination from the first
  // byte, the packets rewritten in order; a UBX frame keeps its length, and a frame or
  // sentence stays one (the splitter reads it back as one packet of its kind).
  let shift = (Int64(first) - 128) * 86_400_123_456_789
  let destination = try? GeodeticPosition(
    latitude: Double(Int(first) - 128) * 0.7, longitude: Double(first) * 1.4 - 179,
    altitudeMeters: 0)
  var rewriter = ReplayRewriter(moveTo: destination, timeShiftNanoseconds: shift)
  for packet in whole where packet.problem == nil && (packet.kind == .ubx || packet.kind == .nmea) {
    let rewritten = rewriter.rewrite(packet)
    guard packet.kind != .ubx || rewritten.bytes.count == packet.bytes.count else {
      failure("UBX frame of \(packet.bytes.count) bytes rewritten to \(rewritten.bytes.count)")
    }
    let reread = packets(of: Array(rewritten.bytes), inChunksOf: rewritten.bytes.count)
    guard reread.count == 1, reread.first?.kind == packet.kind else {
      failure("\(packet.kind) packet rewritten into \(reread.map(\.kind))")
    }
  }

  var parser = RecordingParser()
  var items = parser.items(from: input)
  items += parser.finish()
  var recorded = 0
  for item in items {
    if case .chunk(let chunk) = item { recorded += chunk.bytes.count }
  }
  guard recorded <= input.count else { failure("records hold \(recorded) bytes of \(input.count)") }

  var header = LogHeader()
  for line in input.split(separator: 0x0A) {
    if let complaint = header.read(comment: line), complaint.contains(where: \.isNewline) {
      failure("header complaint is not one line: \(complaint.debugDescription)")
    }
  }
}

/// The packets of `input` fed in chunks of `size` bytes.
func packets(of input: [UInt8], inChunksOf size: Int) -> [LogPacket] {
  var splitter = LogPacketSplitter()
  var packets: [LogPacket] = []
  var start = 0
  while start < input.count {
    let end = min(input.count, start + size)
    packets += splitter.packets(from: input[start..<end])
    start = end
  }
  return packets + splitter.finish()
}

let builtInSeeds: [[UInt8]] = [
  [0x00] + Array("# Serial: 4800 8N1\r\n# Date: 2024-07-01\r\n".utf8) + encodedEpochs.joined(),
  [0x5A] + ubxFrames.joined() + Array("$GPGGA,1235$GPRMC,1,*00\r\r\n\0\0garbage\n".utf8),
  [0x13] + Array("# mockgps recording 1\n# Serial: 9600 8N1\n@1764540000.123456789 5\n$GPGG\n".utf8)
    + Array("@1764540000.2 3\nxyz\n@bad\n".utf8),
  [0xFF] + [0xB5, 0x62, 0x01, 0x07, 0xFF, 0xFF] + ubxFrames.joined()
    + [0xA0, 0xA2, 0x00, 0x02, 0x02, 0x00, 0x00, 0x02, 0xB0, 0xB3, 0x10, 0x03],
  // Sentences the splitter may frame whole, beside ones it must step: a CR alone, a tab, DEL,
  // a byte above ASCII, a UBX sync and an RTCM 3 preamble in a sentence, lines at the length
  // where a line becomes too long.
  [0x00] + Array("$GPGSA,A,3,04,05,,09,12*3E\r$GPGSV,1\t2*00\n!AIVDM,1,1,,A,13u?".utf8) + [0x7F]
    + Array("0\n$GPZDA,201530.00,04,07,2002,00,00*60\r\n$GPVTG,054.7,T".utf8) + [0xB5, 0x62]
    + Array(",034.4,M\r\n$GPGLL,4916.45".utf8) + [0xD3, 0xE9] + Array(",N*31\n".utf8)
    + [0x24] + Array(repeating: 0x41, count: 4093) + [0x0D, 0x0A]
    + [0x24] + Array(repeating: 0x41, count: 4094) + [0x0A]
    + [0x24] + Array(repeating: 0x41, count: 4095) + [0x0D, 0x0A],
]
