/// The (32,26) Hamming parity of GPS LNAV words (IS-GPS-200, 20.3.5.2 and Table 20-XIV).
public enum LNAVParity {
  /// The data bits d1…d24 each parity bit D25…D30 sums, with which of the previous word's
  /// D29* (false) or D30* (true) it starts from.
  static let equations: [(usesD30: Bool, bits: [Int])] = [
    (false, [1, 2, 3, 5, 6, 10, 11, 12, 13, 14, 17, 18, 20, 23]),
    (true, [2, 3, 4, 6, 7, 11, 12, 13, 14, 15, 18, 19, 21, 24]),
    (false, [1, 3, 4, 5, 7, 8, 12, 13, 14, 15, 16, 19, 20, 22]),
    (true, [2, 4, 5, 6, 8, 9, 13, 14, 15, 16, 17, 20, 21, 23]),
    (true, [1, 3, 5, 6, 7, 9, 10, 14, 15, 16, 17, 18, 21, 22, 24]),
    (false, [3, 5, 6, 8, 9, 10, 11, 13, 15, 19, 22, 23, 24]),
  ]

  /// Each equation's data bits as a mask of the 24-bit data word (d1 its top bit).
  static let masks: [(usesD30: Bool, mask: UInt32)] = equations.map { equation in
    (equation.usesD30, equation.bits.reduce(0) { $0 | 1 << UInt32(24 - $1) })
  }

  /// The six parity bits D25…D30 of the 24 data bits `data` (d1 the most significant), given
  /// the last two bits of the previous word.
  public static func bits(data: UInt32, previousD29: Bool, previousD30: Bool) -> UInt32 {
    var parity: UInt32 = 0
    for (usesD30, mask) in masks {
      let start: UInt32 = (usesD30 ? previousD30 : previousD29) ? 1 : 0
      parity = parity << 1 | (start ^ UInt32((data & mask).nonzeroBitCount & 1))
    }
    return parity
  }
}

/// The 30-bit words of one LNAV subframe, built from their 24 data bits.
public struct LNAVSubframe: Hashable, Sendable {
  /// The ten words: 24 data bits (as decoded, never inverted) then the six parity bits, in the
  /// low 30 bits as RXM-SFRBX carries them.
  public var words: [UInt32]

  /// The subframe of ten 24-bit data words. Words 2 and 10 have their last two data bits
  /// chosen so that the word's parity ends in 00 (IS-GPS-200 20.3.5.2), so every word starts
  /// after D29* = D30* = 0 except those after another word.
  init(data: [UInt32]) {
    var words: [UInt32] = []
    words.reserveCapacity(data.count)
    var previous: UInt32 = 0
    for (index, value) in data.enumerated() {
      let solved = index == 1 || index == 9
      var word = Self.word(data: value, after: previous)
      if solved {
        for ending in UInt32(0)...3 {
          word = Self.word(data: value & ~3 | ending, after: previous)
          if word & 3 == 0 { break }
        }
      }
      words.append(word)
      previous = word
    }
    self.words = words
  }

  static func word(data: UInt32, after previous: UInt32) -> UInt32 {
    let data = data & 0xFF_FFFF
    return data << 6
      | LNAVParity.bits(
        data: data, previousD29: previous >> 1 & 1 == 1, previousD30: previous & 1 == 1)
  }
}
