import NMEA
import RTCM
import Receiver
import SiRF
import Simulation
import UBX

/// The `client-input` target: the bytes a client writes to the device, through `ClientInput` in
/// chunks of 1 to 24 bytes, their sizes drawn from the fault layer's generator seeded by a hash of
/// the input (so a crash replays).
///
/// Checked: every NMEA line, UBX, SiRF and RTCM 3 frame is bounded in length; the bytes in messages plus the
/// bytes discarded never exceed the input; and the messages are the same as when the input
/// arrives in one piece.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  var whole = clientInput()
  let expected = whole.receive(bytes)
  var chunked = clientInput()
  var messages: [ClientMessage] = []
  // FNV-1a of the input.
  let seed = bytes.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
  var generator = FaultRandomNumberGenerator(seed: seed)
  var start = 0
  while start < bytes.count {
    let end = min(bytes.count, start + 1 + Int(generator.next() % 24))
    messages += chunked.receive(bytes[start..<end])
    start = end
  }
  guard messages == expected else {
    failure("chunked input gave \(messages), whole input \(expected)")
  }
  guard chunked.discardedByteCount == whole.discardedByteCount,
    chunked.echoedSentenceCount == whole.echoedSentenceCount
  else {
    failure("chunked input counted differently from the whole input")
  }
  var accounted = chunked.discardedByteCount
  for message in messages {
    switch message {
    case .nmea(let line):
      // Each byte of the line is one scalar, or U+FFFD for a byte that is not UTF-8.
      let length = line.unicodeScalars.count
      guard length <= InputDemultiplexer().maximumLineLength else {
        failure("NMEA line of \(length) bytes: \(line.debugDescription)")
      }
      accounted += length
    case .ubx(let frame):
      guard frame.payload.count <= UBXFrame.maximumPayloadLength else {
        failure("UBX frame with a payload of \(frame.payload.count) bytes")
      }
      accounted += frame.payload.count + UBXFrame.overhead
    case .sirf(let frame):
      guard frame.payload.count <= SiRFFrame.maximumPayloadLength else {
        failure("SiRF frame with a payload of \(frame.payload.count) bytes")
      }
      accounted += frame.payload.count + SiRFFrame.overhead
    case .rtcm(.frame(let frame)):
      guard frame.payload.count <= RTCMFrame.maximumPayloadLength else {
        failure("RTCM frame with a payload of \(frame.payload.count) bytes")
      }
      accounted += frame.payload.count + RTCMFrame.overhead
    case .rtcm(.checksumFailed):
      // Its preamble is counted as discarded, and its other bytes scanned again.
      break
    }
  }
  guard accounted <= bytes.count else {
    failure("\(accounted) bytes in messages and discarded, of \(bytes.count) bytes of input")
  }
}

/// A reader that has sent the sentences of one epoch, so their echo is recognised.
func clientInput() -> ClientInput {
  var input = ClientInput()
  input.didSend(lines: sentLines)
  return input
}

let sentLines: [String] = encodedEpochs[0].split(separator: 0x0A).map {
  String(decoding: $0.dropLast(), as: UTF8.self)
}

/// Epochs and frames interleaved as a client might write them (echo and commands mixed).
let builtInSeeds: [[UInt8]] =
  encodedEpochs + ubxFrames + [
    Array(zip(encodedEpochs, ubxFrames).map { $0 + $1 }.joined()),
    Array("$PMTK220,200*2C\r\n$PUBX,00*33\r\n".utf8) + ubxFrames[0] + Array("$GPGGA,12".utf8)
      + ubxFrames[2],
    // RTCM 3 corrections among commands: message 1005 of RTCM 10403.3, then a 1230.
    [0xD3, 0x00, 0x13, 0x3E, 0xD7, 0xD3, 0x02, 0x02, 0x98, 0x0E, 0xDE, 0xEF, 0x34, 0xB4, 0xBD]
      + [0x62, 0xAC, 0x09, 0x41, 0x98, 0x6F, 0x33, 0x36, 0x0B, 0x98] + ubxFrames[0]
      + RTCMFrame(payload: [0x4C, 0xE0, 0x05, 0x00]).bytes,
  ]
