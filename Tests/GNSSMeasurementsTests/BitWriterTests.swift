import Simulation
import Testing

@testable import GNSSMeasurements

/// The bit writer against a plain list of bits: seeded random fields of 0 to 64 bits (signed,
/// unsigned, wider than 64 with the sign extended), copies of ranges and reads of words come
/// out as the bits say.
struct BitWriterTests {
  @Test func fieldsOfEveryWidthAreTheBitsAppended() {
    var generator = FaultRandomNumberGenerator(seed: 23)
    for _ in 0..<200 {
      var writer = BitWriter(capacity: 8)
      var bits: [Bool] = []
      for _ in 0..<Int.random(in: 0..<30, using: &generator) {
        let width = Int.random(in: 0...80, using: &generator)
        let value = Int64.random(in: .min ... .max, using: &generator)
        writer.append(value, width: width)
        bits += (0..<width).map { index in
          let shift = width - 1 - index
          return shift >= 64 ? value < 0 : (UInt64(bitPattern: value) >> UInt64(shift)) & 1 == 1
        }
      }
      #expect(writer.count == bits.count)
      let bytes = stride(from: 0, to: bits.count, by: 8).map { start in
        (0..<8).reduce(UInt8(0)) { byte, index in
          byte << 1 | (start + index < bits.count && bits[start + index] ? 1 : 0)
        }
      }
      #expect(writer.bytes == bytes)
      for width in [1, 22, 24, 30, 32] {
        let words = stride(from: 0, to: bits.count, by: width).map { start in
          (0..<width).reduce(UInt32(0)) { word, index in
            word << 1 | (start + index < bits.count && bits[start + index] ? 1 : 0)
          }
        }
        #expect(writer.words(width: width) == words)
      }
      guard bits.count > 2 else { continue }
      let lower = Int.random(in: 0..<bits.count - 1, using: &generator)
      let upper = Int.random(in: lower...bits.count, using: &generator)
      var copy = BitWriter()
      copy.append(1, width: 3)
      copy.append(writer, bits: lower..<upper)
      #expect(copy.count == 3 + upper - lower)
      #expect(copy.field(at: 0, width: 3) == 1)
      for (index, bit) in bits[lower..<upper].enumerated() {
        #expect(copy.field(at: 3 + index, width: 1) == (bit ? 1 : 0))
      }
    }
  }
}
