import Foundation
import MockGPSTestSupport
import Receiver
import Testing
import UBX

/// A real client of `mockgps run --profile ublox-f9p` that turns on RXM-RAWX and RXM-SFRBX
/// beside the default NMEA: an epoch of NMEA, three systems' two-signal RAWX and a second's
/// navigation message parts is longer than the pseudo-terminal's 4 KiB queue, and still
/// arrives whole while the client reads (it was dropped every time: no SFRBX ever came).
@Suite(.blocking) struct RawOutputProcessTests {
  @Test(.timeLimit(.minutes(10)))
  func epochsLongerThanTheQueueArriveWhole() throws {
    let directory = try ScratchDirectory("raw-output")
    defer { directory.remove() }
    let link = directory.path + "/ttyF9P"
    let (process, _) = try MockGPSBinary.start([
      "--profile", "ublox-f9p", "--baud", "460800", "--link", link,
    ])
    defer { process.kill() }
    let reader = try DeviceReader(path: link)
    try reader.setSpeed(baud: 460800)
    let enable = UBXValueSet.frame([
      UBXConfigurationItem(key: UBXConfigurationKey(0x2091_02A5), value: 1),
      UBXConfigurationItem(key: UBXConfigurationKey(0x2091_0232), value: 1),
    ])
    var frames: [UBXFrame] = []
    var demultiplexer = InputDemultiplexer()
    // Up to 30 s, until eight RAWX have come; the VALSET again while none has (a write a
    // loaded machine's chip missed).
    let deadline = Date().addingTimeInterval(30)
    var enabledAt = Date.distantPast
    while Date() < deadline, frames.filter({ $0.messageType == .rxmRAWX }).count < 8 {
      if !frames.contains(where: { $0.messageType == .rxmRAWX }),
        Date().timeIntervalSince(enabledAt) > 3
      {
        try reader.write(bytes: enable.bytes)
        enabledAt = Date()
      }
      for burst in reader.readBursts(1, gapSeconds: 0.3, timeoutSeconds: 1) {
        for message in demultiplexer.append(burst) {
          if case .ubx(let frame) = message { frames.append(frame) }
        }
      }
    }
    let raw = frames.filter { $0.messageType == .rxmRAWX }
    let subframes = frames.filter { $0.messageType == .rxmSFRBX }
    #expect(raw.count >= 8, "\(frames.count) frames; \(process.standardError)")
    // Eight seconds carry four I/NAV page pairs of every Galileo satellite at least.
    let galileo = subframes.filter { $0.payload.first == 2 }
    #expect(galileo.count >= 4 * 4, "\(subframes.count) SFRBX, \(galileo.count) Galileo")
    let largest = raw.map { 16 + 32 * Int($0.payload[11]) }.max() ?? 0
    #expect(largest > 1_500, "RAWX of \(largest) bytes: three systems on two signals")
  }
}
