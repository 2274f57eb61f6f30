import Receiver
import UBX

/// The `ubx-config` target: the configuration commands of the u-blox handlers. The first byte
/// picks the message, the rest is its payload:
/// - even: CFG-VALSET to a ZED-F9P. It gets exactly one ACK or NAK; an ACK'd setting of version
///   0 that writes RAM is read back by CFG-VALGET (RAM layer, 64 keys a poll) with the values
///   it set, the last one where a key came twice.
/// - 1 mod 4: CFG-VALGET to a ZED-F9P: exactly one ACK or NAK, and an answer only with an ACK.
/// - 3 mod 8: CFG-PRT to a u-blox M8, any number of blocks: exactly one ACK or NAK; after an
///   ACK'd setting, a poll of each port it set answers that port's block.
/// - 7 mod 8: a legacy CFG message to a ZED-F9P, the next byte picking which (its fields are
///   views of the configuration keys): exactly one ACK or NAK, then a poll is answered.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  guard let selector = bytes.first else { return }
  let payload = Array(bytes.dropFirst())
  switch selector % 8 {
  case 0, 2, 4, 6: checkValueSet(payload)
  case 1, 5: checkValueGet(payload)
  case 3: checkPorts(payload)
  default: checkLegacy(payload)
  }
}

/// The F9P's legacy messages whose fields are views of keys.
let legacyMessages: [UBXMessageType] = [
  .cfgPRT, .cfgINF, .cfgANT, .cfgDAT, .cfgDGNSS, .cfgGEOFENCE, .cfgITFM, .cfgLOGFILTER,
  .cfgNAVX5, .cfgODO, .cfgRATE, .cfgRINV, .cfgTMODE3, .cfgUSB, .cfgNAV5, .cfgSBAS, .cfgTP5,
  .cfgNMEA, .cfgGNSS,
]

func checkLegacy(_ bytes: [UInt8]) {
  guard let choice = bytes.first else { return }
  let type = legacyMessages[Int(choice) % legacyMessages.count]
  var handler = UbloxCommandHandler(profile: .ubloxF9P)
  let set = UBXFrame(type, payload: Array(bytes.dropFirst()))
  let acknowledged = acknowledgement(of: type, in: replies(handler.handle(.ubx(set))))
  // A CFG-PRT for UART1 without UBX input leaves the polls unanswered.
  if acknowledged, type == .cfgPRT { return }
  let poll = type == .cfgINF ? UBXFrame(type, payload: [1]) : UBXFrame(type)
  let polled = replies(handler.handle(.ubx(poll)))
  guard polled.contains(where: { $0.messageType == type }) else {
    failure("no answer to the poll of \(type) after \(set): \(polled)")
  }
}

/// The UBX frames of the replies among `effects`.
func replies(_ effects: [ReceiverEffect]) -> [UBXFrame] {
  effects.compactMap { effect in
    guard case .reply(let bytes) = effect else { return nil }
    guard let frame = try? UBXFrame(parsing: bytes), frame.bytes.count == bytes.count else {
      failure("a reply that is not one UBX frame: \(bytes)")
    }
    return frame
  }
}

/// Checks that `frames` hold exactly one ACK or NAK, of `type`; returns true for an ACK.
func acknowledgement(of type: UBXMessageType, in frames: [UBXFrame]) -> Bool {
  let answers = frames.filter { $0.messageType == .ackACK || $0.messageType == .ackNAK }
  guard answers.count == 1, let answer = answers.first,
    answer.payload == [type.messageClass, type.id]
  else { failure("\(frames) answer \(type) with \(answers.count) ACK/NAK") }
  return answer.messageType == .ackACK
}

/// Key-value pairs to the end of `reader`; nil when a size is reserved or a value cut.
func items(_ reader: inout UBXPayloadReader) -> [(UInt32, UInt64)]? {
  var items: [(UInt32, UInt64)] = []
  while reader.remainingCount > 0 {
    guard let raw = reader.u4(), let size = UBXConfigurationKey(raw).valueByteCount,
      let value = reader.unsigned(byteCount: size)
    else { return nil }
    items.append((raw, value))
  }
  return items
}

func checkValueSet(_ payload: [UInt8]) {
  var handler = UbloxCommandHandler(profile: .ubloxF9P)
  let set = UBXFrame(.cfgVALSET, payload: payload)
  guard acknowledgement(of: .cfgVALSET, in: replies(handler.handle(.ubx(set)))) else { return }
  var reader = UBXPayloadReader(payload)
  guard reader.u1() == 0, let layers = reader.u1(), layers & 0x01 != 0, reader.u2() != nil,
    let written = items(&reader)
  else { return }
  var expected: [UInt32: UInt64] = [:]
  for (key, value) in written { expected[key] = value }
  let keys = Array(expected.keys).sorted()
  // CFG-UART1INPROT-UBX set to 0 turns UBX input off: the chip then ignores the VALGET.
  if expected[0x1073_0001] == 0 {
    let ignored = replies(handler.handle(.ubx(UBXFrame(.cfgVALGET, payload: [0, 0, 0, 0]))))
    guard ignored.isEmpty else { failure("a VALGET answered with UBX input off: \(ignored)") }
    return
  }
  for start in stride(from: 0, to: keys.count, by: 64) {
    let asked = keys[start..<min(keys.count, start + 64)]
    var poll = UBXPayloadWriter()
    poll.u1(0)
    poll.u1(0)
    poll.u2(0)
    for key in asked { poll.u4(key) }
    let frames = replies(handler.handle(.ubx(UBXFrame(.cfgVALGET, payload: poll.bytes))))
    guard acknowledgement(of: .cfgVALGET, in: frames),
      let answer = frames.first(where: { $0.messageType == .cfgVALGET })
    else { failure("keys set by \(set) cannot be read back: \(frames)") }
    var answerReader = UBXPayloadReader(answer.payload)
    guard answerReader.u1() == 1, answerReader.u1() == 0, answerReader.u2() == 0,
      let read = items(&answerReader)
    else { failure("a malformed VALGET answer \(answer)") }
    for (key, value) in read where expected[key] != value {
      failure("\(UBXConfigurationKey(key)) set to \(expected[key] ?? 0) reads back \(value)")
    }
    guard Set(read.map(\.0)) == Set(asked) else {
      failure("asked \(asked.count) keys set by \(set), got \(read.map(\.0))")
    }
  }
}

func checkValueGet(_ payload: [UInt8]) {
  var handler = UbloxCommandHandler(profile: .ubloxF9P)
  let frames = replies(handler.handle(.ubx(UBXFrame(.cfgVALGET, payload: payload))))
  let answered = frames.contains { $0.messageType == .cfgVALGET }
  guard acknowledgement(of: .cfgVALGET, in: frames) == answered else {
    failure("VALGET \(payload): \(frames)")
  }
}

func checkPorts(_ payload: [UInt8]) {
  var handler = UbloxCommandHandler(profile: .ubloxM8)
  let set = UBXFrame(.cfgPRT, payload: payload)
  let frames = replies(handler.handle(.ubx(set)))
  guard acknowledgement(of: .cfgPRT, in: frames), payload.count >= 20 else { return }
  var blocks: [UInt8: [UInt8]] = [:]
  for start in stride(from: 0, to: payload.count - 19, by: 20) {
    blocks[payload[start]] = Array(payload[start..<(start + 20)])
  }
  // A UART1 block without UBX among its input protocols turns UBX input off: the chip then
  // ignores the polls, unanswered (`UbloxCommandHandler+InputProtocols`).
  let ubxInputOff = blocks[UBXPortConfiguration.uart1].map { $0[12] & 0x01 == 0 } ?? false
  for (port, block) in blocks {
    let polled = replies(handler.handle(.ubx(UBXFrame(.cfgPRT, payload: [port]))))
    if ubxInputOff {
      guard polled.isEmpty else { failure("a poll answered with UBX input off: \(polled)") }
      continue
    }
    guard let answer = polled.first(where: { $0.messageType == .cfgPRT }) else {
      failure("no answer to the poll of port \(port) after \(set): \(polled)")
    }
    guard answer.payload.count == 20, answer.payload[0] == port else {
      failure("port \(port) set by \(block) polls back as \(answer.payload)")
    }
  }
}

/// A frame's message selector and payload, as this target reads its input.
func seed(_ selector: UInt8, _ payload: [UInt8]) -> [UInt8] { [selector] + payload }

/// The UART1 block of CFG-PRT at `baud`, 8N1, UBX and NMEA in, `outMask` out.
func uart1(baud: UInt32, outMask: UInt8) -> [UInt8] {
  var block = UBXPayloadWriter()
  block.u1(1)
  block.u1(0)
  block.u2(0)
  block.u4(0x0000_08C0)
  block.u4(baud)
  block.u2(0x0003)
  block.u2(UInt16(outMask))
  block.u2(0)
  block.u2(0)
  return block.bytes
}

let builtInSeeds: [[UInt8]] = [
  // ArduPilot's first VALSET: UART1 stop bits, data bits, parity, UBX/NMEA in, UBX out.
  seed(
    0,
    [0x00, 0x01, 0x00, 0x00, 0x02, 0x00, 0x52, 0x20, 0x01, 0x03, 0x00, 0x52, 0x20, 0x00]
      + [0x04, 0x00, 0x52, 0x20, 0x00, 0x01, 0x00, 0x73, 0x10, 0x01, 0x02, 0x00, 0x73, 0x10, 0x01]
      + [0x01, 0x00, 0x74, 0x10, 0x01]),
  // PX4's UART1 baud 115200 (CFG-UART1-BAUDRATE, U4) and rate 200 ms (CFG-RATE-MEAS, U2).
  seed(0, [0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x52, 0x40, 0x00, 0xC2, 0x01, 0x00]),
  seed(2, [0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x21, 0x30, 0xC8, 0x00]),
  // A transaction: begin, then apply.
  seed(0, [0x01, 0x01, 0x01, 0x00, 0x01, 0x00, 0x21, 0x30, 0xE8, 0x03]),
  // VALGET of UART1's baud in RAM, and of every CFG-RATE key by wildcard.
  seed(1, [0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x52, 0x40]),
  seed(1, [0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0x21, 0x30]),
  // PX4's legacy CFG-PRT: UART1 and USB in one message, 40 bytes.
  seed(
    3, uart1(baud: 38400, outMask: 0x01) + [0x03] + Array(uart1(baud: 0, outMask: 0x01).dropFirst())
  ),
  seed(3, uart1(baud: 9600, outMask: 0x03)),
  seed(3, [0x01]),
  // Legacy messages to the F9P: CFG-PRT's UART2 block, CFG-GEOFENCE with one fence.
  seed(7, [0] + [0x02] + Array(uart1(baud: 115_200, outMask: 0x21).dropFirst())),
  seed(7, [5, 0, 1, 2, 0, 1, 0, 3, 0] + [UInt8](repeating: 7, count: 12)),
]
