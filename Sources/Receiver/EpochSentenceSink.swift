import NMEA

/// What `EpochEncoder` hands the sentences of an epoch to, one by one in the order they are
/// sent, each as its own type: so that the lines sent each epoch are written straight from the
/// sentence tables, and the raw sentences that tests and wire faults read come from the same
/// encoder.
protocol EpochSentenceSink {
  /// Takes the next sentence.
  mutating func append<Body: SentenceBody>(_ sentence: Body)
}

/// The lines of an epoch as they go on the wire, each ending in CR LF.
struct EpochLines: EpochSentenceSink {
  var lines: [[UInt8]]
  /// The number of each line's time field (`SentenceSpec.timeFieldNumber`), nil where it has
  /// none.
  var timeFields: [Int?]
  /// The lines of the epoch before, to take where a sentence has not changed.
  let memo: EpochLineMemo
  /// The type of the last sentence and how many of it came before it: the sentences of a type
  /// are consecutive in every dialect's order.
  private var last: (type: ObjectIdentifier, occurrence: Int)?

  /// Lines with room for an epoch's usual count, so that the list is allocated once.
  init(memo: EpochLineMemo) {
    lines = []
    lines.reserveCapacity(16)
    timeFields = []
    timeFields.reserveCapacity(16)
    self.memo = memo
  }

  mutating func append<Body: SentenceBody>(_ sentence: Body) {
    let type = ObjectIdentifier(Body.self)
    let occurrence = last.map { $0.type == type ? $0.occurrence + 1 : 0 } ?? 0
    last = (type, occurrence)
    lines.append(memo.line(for: sentence, occurrence: occurrence, near: lines.count))
    timeFields.append(Body.spec.timeFieldNumber)
  }
}

/// The sentences of an epoch as address and fields.
struct EpochRawSentences: EpochSentenceSink {
  var sentences: [RawSentence] = []

  mutating func append<Body: SentenceBody>(_ sentence: Body) {
    sentences.append(sentence.raw)
  }
}
