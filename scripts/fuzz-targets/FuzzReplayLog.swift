import Replay
import UBX
import Wire

/// The `replay-log` target: the bytes as a log to replay. `LogPacketSplitter` gets them in
/// chunks whose sizes come from the first byte; the packets must join into the bytes, have a
/// line from 1, and a garbage packet must have a problem. The bytes also go to
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

let builtInSeeds: [[UInt8]] = [
  [0x00] + Array("# Serial: 4800 8N1\r\n# Date: 2024-07-01\r\n".utf8) + encodedEpochs.joined(),
  [0x5A] + ubxFrames.joined() + Array("$GPGGA,1235$GPRMC,1,*00\r\r\n\0\0garbage\n".utf8),
  [0x13] + Array("# mockgps recording 1\n# Serial: 9600 8N1\n@1764540000.123456789 5\n$GPGG\n".utf8)
    + Array("@1764540000.2 3\nxyz\n@bad\n".utf8),
  [0xFF] + [0xB5, 0x62, 0x01, 0x07, 0xFF, 0xFF] + ubxFrames.joined()
    + [0xA0, 0xA2, 0x00, 0x02, 0x02, 0x00, 0x00, 0x02, 0xB0, 0xB3, 0x10, 0x03],
]
