import NMEA

/// What goes wrong on the wire: what the bytes of an epoch suffer after the encoder.
public enum WireFaultKind: Hashable, Sendable {
  /// How a corrupted sentence is broken.
  public enum SentenceCorruption: String, Hashable, Sendable, CaseIterable {
    /// The checksum is written as the complement of the right one.
    case checksum
    /// The sentence is cut before its checksum, at a random length of at least one byte; its
    /// line still ends in CR LF.
    case truncate
  }

  /// Nothing is sent.
  case silence
  /// The checksum of every `period`th sentence of the epoch is written wrong (1 means every
  /// sentence, and so does anything less); counting starts again each epoch.
  case corruptChecksum(every: Int)
  /// The epoch is cut after its first `bytes` bytes, mid-sentence, without a line ending.
  case truncateEpoch(afterBytes: Int)
  /// Each sentence is cut after its first `bytes` bytes and its line still ends in CR LF.
  case truncateSentences(afterBytes: Int)
  /// Each byte is replaced by a different one with `probability`, drawn from `seed` and the
  /// epoch time only.
  case byteNoise(probability: Double, seed: UInt64)
  /// Each sentence is corrupted with probability `rate` (0...1), drawn for each sentence from
  /// the seed, the epoch time and the sentence's index in the epoch only.
  case corruptSentences(rate: Double, style: SentenceCorruption, seed: UInt64)
}

/// One thing that goes wrong on the wire, for a time.
public typealias WireFault = TimedFault<WireFaultKind>

/// The wire faults of a receiver.
public typealias WireFaults = TimedFaults<WireFaultKind>

/// The wire faults of a receiver, applied to the sentences of one epoch.
///
/// At each epoch only the faults whose window contains the epoch time take part, in these stages
/// (several faults of one stage apply in list order):
/// 1. Silence: nothing is sent, whatever the other faults.
/// 2. Checksum corruption: the checksum is written as the complement of the right one, for every
///    `period`th sentence, then for the sentences a `corruptSentences` draw picks.
/// 3. Sentence truncation: a fixed length, then the random cuts of `corruptSentences`.
/// 4. Byte noise, 5. epoch truncation.
///
/// The result depends only on the sentences, the epoch time and the faults, so the same epoch
/// always gives the same bytes.
extension TimedFaults where Kind == WireFaultKind {
  /// The bytes sent for the sentences of the epoch at `time`, each sentence ending in CR LF
  /// unless a fault cuts it.
  public func apply(to sentences: [RawSentence], at time: UTCInstant) -> [UInt8] {
    let kinds = active(at: time).map { $0.kind }
    guard !kinds.isEmpty else { return Array(sentences.map { $0.line }.joined().utf8) }
    if kinds.contains(.silence) { return [] }
    var lines = sentences.map { Array($0.description.utf8) }
    for case .corruptChecksum(let period) in kinds {
      let period = max(1, period)
      for (index, sentence) in sentences.enumerated()
      where (index + 1) % period == 0 && sentence.hasChecksum {
        lines[index] = Self.withWrongChecksum(sentence)
      }
    }
    let draws = kinds.compactMap { kind -> SentenceCorruptionDraws? in
      guard case .corruptSentences(let rate, let style, let seed) = kind else { return nil }
      return SentenceCorruptionDraws(
        rate: rate, style: style, seed: seed, time: time, count: sentences.count)
    }
    for draw in draws where draw.style == .checksum {
      for (index, sentence) in sentences.enumerated()
      where draw.isCorrupted[index] && sentence.hasChecksum {
        lines[index] = Self.withWrongChecksum(sentence)
      }
    }
    for case .truncateSentences(let count) in kinds {
      lines = lines.map { Array($0.prefix(max(0, count))) }
    }
    for draw in draws where draw.style == .truncate {
      for index in lines.indices where draw.isCorrupted[index] {
        lines[index] = Array(lines[index].prefix(draw.cutLength(index, of: lines[index].count)))
      }
    }
    var bytes: [UInt8] = lines.flatMap { $0 + [0x0D, 0x0A] }
    for case .byteNoise(let probability, let seed) in kinds {
      var generator = FaultRandomNumberGenerator(seed: seed, time: time)
      for index in bytes.indices where generator.nextUnit() < probability {
        bytes[index] ^= UInt8(1 + generator.next() % 255)
      }
    }
    for case .truncateEpoch(let count) in kinds {
      bytes = Array(bytes.prefix(max(0, count)))
    }
    return bytes
  }

  /// The sentence's line with the complement of its checksum, without CR LF.
  static func withWrongChecksum(_ sentence: RawSentence) -> [UInt8] {
    Array("\(sentence.startDelimiter)\(sentence.body)*\(Checksum.hex(~sentence.checksum))".utf8)
  }
}

/// The draws of one `corruptSentences` fault for one epoch: for each sentence, whether it is
/// corrupted and where a cut falls. Two numbers are drawn per sentence whatever the outcome, so
/// sentence `i` always gets the `i`th pair of the epoch's stream: (seed, time, index) decide.
struct SentenceCorruptionDraws {
  let style: WireFaultKind.SentenceCorruption
  let isCorrupted: [Bool]
  let cuts: [UInt64]

  init(
    rate: Double, style: WireFaultKind.SentenceCorruption, seed: UInt64, time: UTCInstant,
    count: Int
  ) {
    var generator = FaultRandomNumberGenerator(seed: seed, time: time)
    var isCorrupted: [Bool] = []
    var cuts: [UInt64] = []
    for _ in 0..<count {
      isCorrupted.append(generator.nextUnit() < rate)
      cuts.append(generator.next())
    }
    self.style = style
    self.isCorrupted = isCorrupted
    self.cuts = cuts
  }

  /// How many bytes a truncated sentence of `length` keeps: 1 up to `length − 3`, so that the
  /// checksum `*hh` is never complete.
  func cutLength(_ index: Int, of length: Int) -> Int {
    guard length > 4 else { return min(length, 1) }
    return 1 + Int(cuts[index] % UInt64(length - 3))
  }
}
