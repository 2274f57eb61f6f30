import Passthrough

/// What the passthrough loop knows of one connection to the receiver, from the open of its
/// port to its loss: whether it sent GNSS data yet, and, while the baud is being found, which
/// rate is on trial since when.
struct PassthroughConnection {
  /// When the port was opened (monotonic).
  let openedNanoseconds: Int64
  /// When the rate on trial was set (monotonic).
  var trialStartNanoseconds: Int64
  /// The index in `GNSSDataDetector.candidateBauds` of the rate on trial; nil with a fixed baud.
  var candidateIndex: Int?
  var detector = GNSSDataDetector()
  /// True once a whole sentence or frame arrived.
  var sawGNSSData = false
  /// True once the "no GNSS data" warning was given.
  var warnedOfSilence = false

  init(now: Int64, candidateIndex: Int?) {
    openedNanoseconds = now
    trialStartNanoseconds = now
    self.candidateIndex = candidateIndex
  }

  /// True while bytes should be held back: the rate is still being found.
  var isFindingBaud: Bool { candidateIndex != nil && !sawGNSSData }

  /// The next rate to try once the one on trial has been listened to long enough, or nil.
  mutating func nextCandidateBaud(now: Int64) -> Int? {
    guard isFindingBaud, let index = candidateIndex,
      now - trialStartNanoseconds >= GNSSDataDetector.dwellNanoseconds
    else { return nil }
    let next = (index + 1) % GNSSDataDetector.candidateBauds.count
    candidateIndex = next
    trialStartNanoseconds = now
    detector.reset()
    return GNSSDataDetector.candidateBauds[next]
  }

  /// True once, when the connection has given no GNSS data for `silenceNanoseconds`.
  mutating func shouldWarnOfSilence(now: Int64, silenceNanoseconds: Int64) -> Bool {
    guard !sawGNSSData, !warnedOfSilence, now - openedNanoseconds >= silenceNanoseconds
    else { return false }
    warnedOfSilence = true
    return true
  }

  /// Looks at bytes read; true when they are the first GNSS data of the connection. With a
  /// fixed baud, once the silence was reported, bytes are no longer looked at: a receiver
  /// that sends only garbage costs no more than forwarding it.
  mutating func noteReceived(_ chunk: ArraySlice<UInt8>) -> Bool {
    guard !sawGNSSData, candidateIndex != nil || !warnedOfSilence,
      detector.sawGNSSData(in: chunk)
    else { return false }
    sawGNSSData = true
    return true
  }
}
