import UBX

/// The `ubx` target: `UBXFrame(parsing:)` on the bytes. A frame that parses re-encodes to the
/// bytes it was parsed from, which start the input; a truncated frame needs more than the input.
func fuzz(_ bytes: UnsafeBufferPointer<UInt8>) {
  do throws(UBXError) {
    let frame = try UBXFrame(parsing: bytes)
    let encoded = frame.bytes
    guard encoded.count <= bytes.count, encoded.elementsEqual(bytes.prefix(encoded.count)) else {
      failure("\(frame) re-encodes to \(encoded), not a prefix of \(Array(bytes))")
    }
    guard frame.payload.count <= UBXFrame.maximumPayloadLength else {
      failure("payload of \(frame.payload.count) bytes accepted")
    }
  } catch .truncated(let found, let needed) {
    guard found == min(bytes.count, needed), needed > bytes.count else {
      failure("truncated(found: \(found), needed: \(needed)) for \(bytes.count) bytes")
    }
  } catch {}
}

let builtInSeeds: [[UInt8]] = ubxFrames + [ubxFrames.joined() + [0xB5, 0x62, 0x06]]
