import Passthrough
import UBX

/// The `baud-watcher` target: client and receiver bytes interleaved through a
/// `BaudChangeWatcher`. Each segment is a control byte (high bit: from the receiver, low six
/// bits: length - 1) and its bytes. A baud is followed only while a change is pending, is one
/// of the supported rates, and ends the change.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  var watcher = BaudChangeWatcher()
  var index = bytes.startIndex
  while index < bytes.endIndex {
    let control = bytes[index]
    let end = min(bytes.endIndex, index + 1 + Int(control & 0x3F) + 1)
    let segment = bytes[(index + 1)..<end]
    index = end
    guard control & 0x80 != 0 else {
      watcher.clientSent(segment)
      continue
    }
    let pending = watcher.pending
    guard let baud = watcher.receiverSent(segment) else { continue }
    guard pending != nil else { failure("followed \(baud) without a pending change") }
    guard BaudChangeWatcher.supportedBauds.contains(baud) else { failure("followed \(baud)") }
    guard watcher.pending == nil else { failure("\(baud) followed, still pending") }
  }
}

/// Segments of at most 64 bytes, with their control bytes.
func segments(_ bytes: [UInt8], fromReceiver: Bool) -> [UInt8] {
  stride(from: 0, to: bytes.count, by: 64).flatMap { start -> [UInt8] in
    let part = bytes[start..<min(bytes.count, start + 64)]
    return [UInt8(part.count - 1) | (fromReceiver ? 0x80 : 0)] + part
  }
}

let builtInSeeds: [[UInt8]] = [
  segments(
    UBXPortConfiguration(baud: 115_200, inProtocols: [.ubx, .nmea], outProtocols: [.ubx, .nmea])
      .frame.bytes, fromReceiver: false)
    + segments(UBXAcknowledgement.acknowledge(.cfgPRT).bytes, fromReceiver: true),
  segments(Array("$PMTK251,38400*27\r\n".utf8), fromReceiver: false)
    + segments(Array("$PMTK001,251,3*36\r\n".utf8), fromReceiver: true),
  segments(Array("$PMTK251,38400*27\r\n".utf8), fromReceiver: false)
    + segments((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37) }, fromReceiver: true),
]
