import NMEA

/// What goes wrong on the wire: what the bytes of an epoch suffer after the encoder.
public enum WireFaultKind: Hashable, Sendable {
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
/// 2. Checksum corruption: the checksum is written as the complement of the right one.
/// 3. Sentence truncation, 4. byte noise, 5. epoch truncation.
///
/// The result depends only on the sentences, the epoch time and the faults, so the same epoch
/// always gives the same bytes.
extension TimedFaults where Kind == WireFaultKind {
  /// The bytes sent for the sentences of the epoch at `time`, each sentence ending in CR LF
  /// unless a fault cuts it.
  public func apply(to sentences: [RawSentence], at time: UTCInstant) -> [UInt8] {
    let kinds = active(at: time).map(\.kind)
    guard !kinds.isEmpty else { return Array(sentences.map(\.line).joined().utf8) }
    if kinds.contains(.silence) { return [] }
    var lines = sentences.map { Array($0.description.utf8) }
    for case .corruptChecksum(let period) in kinds {
      let period = max(1, period)
      for (index, sentence) in sentences.enumerated()
      where (index + 1) % period == 0 && sentence.hasChecksum {
        lines[index] = Array(
          "\(sentence.startDelimiter)\(sentence.body)*\(Checksum.hex(~sentence.checksum))".utf8)
      }
    }
    for case .truncateSentences(let count) in kinds {
      lines = lines.map { Array($0.prefix(max(0, count))) }
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
}
