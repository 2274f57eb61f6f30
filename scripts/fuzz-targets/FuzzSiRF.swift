import Receiver
import SiRF

/// The `sirf` target: `SiRFFrame(parsing:)` on the bytes, then the frame through the SiRF
/// profile's handler in binary mode (the input parser of what gpsd's SiRF driver writes). A
/// frame that parses re-encodes to the bytes it was parsed from, which start the input; a
/// truncated frame needs more than the input; the handler answers every frame with at most an
/// acknowledgement and one message, never trapping on a short or odd payload.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  let frame: SiRFFrame
  do throws(SiRFError) {
    frame = try SiRFFrame(parsing: bytes)
  } catch .truncated(let found, let needed) {
    guard found == min(bytes.count, needed), needed > bytes.count else {
      failure("truncated(found: \(found), needed: \(needed)) for \(bytes.count) bytes")
    }
    return
  } catch {
    return
  }
  let encoded = frame.bytes
  guard encoded.count <= bytes.count, encoded.elementsEqual(bytes.prefix(encoded.count)) else {
    failure("\(frame) re-encodes to \(encoded), not a prefix of \(Array(bytes))")
  }
  guard frame.payload.count <= SiRFFrame.maximumPayloadLength else {
    failure("payload of \(frame.payload.count) bytes accepted")
  }
  var handler = SiRFCommandHandler(profile: .sirf)
  _ = handler.handle(.nmea("$PSRF100,0,4800,8,1,0*0F"))
  let effects = handler.handle(.sirf(frame))
  guard effects.count <= 4 else { failure("\(effects.count) effects for \(frame)") }
}

/// gpsd's SiRF configuration messages (`driver_sirf.c`), framed.
let builtInSeeds: [[UInt8]] = [
  SiRFFrame(id: 132, fields: [0]), SiRFFrame(id: 152, fields: [0]),
  SiRFFrame(id: 166, fields: [0, 0x29, 0, 0, 0, 0, 0]),
  SiRFFrame(id: 136, fields: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]),
  SiRFFrame(id: 128, fields: [UInt8](repeating: 0, count: 22) + [12, 0]),
  SiRFFrame(
    id: 129, fields: [2, 1, 1, 0, 1, 1, 1, 5, 1, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0x12, 0xC0]),
  SiRFFrame(id: 134, fields: [0, 0, 0x96, 0, 8, 1, 0, 0]),
].map(\.bytes)
