import Geodesy
import Passthrough
import Replay
import Simulation

/// The `passthrough-rewrite` target: the bytes as what a real receiver sends. The first byte
/// picks the override (off, replace with and without altitude, offset to and by, route, freeze)
/// and the chunk sizes; a `PassthroughRewriter` gets the rest in those chunks, losing the
/// receiver halfway. With `off` the output must be the input; in every mode what is held back
/// must stay under one packet's worth, and the counters must add up. What comes out is grouped
/// into epochs as the passthrough's listeners get them (`StreamEpochGrouper`), every byte in
/// exactly one epoch, and each epoch's fix read back (`SentFixDecoder`): a fix must have a
/// position in range.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  guard let first = bytes.first else { return }
  let input = Array(bytes.dropFirst())
  let place = GeodeticPosition(known: -33.8568, 151.2153, altitudeMeters: 58)
  let overrides: [PositionOverride] = [
    .off, .replace(place, replacesAltitude: true), .replace(place, replacesAltitude: false),
    .offsetTo(place), .offsetBy(northMeters: 1500, eastMeters: -700),
    .route(FixedPosition(place)), .freeze, .freeze,
  ]
  let override = overrides[Int(first & 0x07)]
  let sizes = [3, 5, 7].map { (shift: Int) -> Int in
    let pick = Int((first >> UInt8(shift)) & 0x03)
    return pick * 97 + 1
  }
  var rewriter = PassthroughRewriter(override: override)
  let now = UTCInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
  var output: [UInt8] = []
  var start = 0
  var turn = 0
  var dropped = 0
  while start < input.count {
    let end = min(input.count, start + sizes[turn % sizes.count])
    output += rewriter.forward(input[start..<end], at: now)
    start = end
    turn += 1
    if turn == 5 {
      let before = rewriter.statistics.bytesReceived - rewriter.statistics.bytesForwarded
      rewriter.receiverLost()
      dropped = before
    }
  }
  let statistics = rewriter.statistics
  guard statistics.bytesReceived == input.count, statistics.bytesForwarded == output.count else {
    failure("counters \(statistics) for \(input.count) bytes in, \(output.count) out")
  }
  if case .off = override, output != input {
    failure("off changed the bytes: \(output.count) out of \(input.count)")
  }
  var grouper = StreamEpochGrouper()
  var decoder = SentFixDecoder()
  var grouped = 0
  var epochs = grouper.add(output)
  if let last = grouper.flush() { epochs.append(last) }
  for epoch in epochs {
    grouped += epoch.reduce(0) { $0 + $1.count }
    if let fix = decoder.fix(of: epoch, wireTime: now),
      !(abs(fix.position.latitude) <= 90 && abs(fix.position.longitude) <= 180)
    {
      failure("a fix out of range: \(fix.position)")
    }
  }
  // The splitter may hold the start of a packet the output ends in.
  guard grouped <= output.count, output.count - grouped < 9216 + 4096 else {
    failure("\(grouped) of \(output.count) bytes output grouped into epochs")
  }
  // Held: at most the longest frame (9216) and a line (4096); rewriting changes few bytes.
  let held = input.count - dropped - output.count
  guard held < 9216 + 4096 + input.count / 8 else {
    failure("\(held) of \(input.count) bytes held back")
  }
}

let builtInSeeds: [[UInt8]] = [
  [0x01] + encodedEpochs.joined() + ubxFrames.joined(),
  [0x6B] + ubxFrames.joined() + Array("$GPGGA,1235$GPRMC,1,*00\r\r\n\0\0garbage\n".utf8),
  [0xA5] + Array("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A*27\r\n".utf8) + encodedEpochs.joined(),
  [0xFE] + [0xB5, 0x62, 0x01, 0x07, 0xFF, 0xFF] + ubxFrames.joined()
    + [0xA0, 0xA2, 0x00, 0x02, 0x29, 0x00, 0x00, 0x29, 0xB0, 0xB3, 0x10, 0x4A, 0x10, 0x03],
]
