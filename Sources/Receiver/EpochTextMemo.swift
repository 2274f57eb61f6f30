import NMEA
import Simulation
import Synchronization

/// The lines of an encoder's last epoch, kept for the next epoch whose fix differs from it in
/// its time alone and that sends the same sentences: that epoch's lines are the last ones with
/// the new time written over the old (`LineTimePatch`) in the sentences that carry one (GGA,
/// RMC, GLL, ZDA, GNS, GST). A receiver standing still sends such epochs all the time; writing
/// its sentences anew, each compared with the last of its type (`EpochLineMemo`), cost ten
/// times as much.
///
/// An epoch's lines are a function of the fix, the sentences sent and the encoder's settings.
/// An encoder whose dialect or constellations change gets a new memo (as `EpochSkyMemo`), so
/// the key holds the fix and the sentences sent; the date is in the fix's time, and a time whose
/// text is longer or shorter than the last one's, or another day, makes a miss. Equal fixes
/// write equal text: a value that is not a number is never equal to itself (a miss), and 0.0
/// and -0.0, equal, write the same (a sign is written for a value below zero; the GST ellipse's
/// atan2, which tells them apart, is given 0.0 for both). Shared by copies of an encoder that
/// keep those settings: a miss is written anew, so it only saves work.
final class EpochTextMemo: Sendable {
  /// A class, so that a hit checks and patches it in place rather than copying its fix out.
  private final class Kept {
    /// The fix with its time set to `timeOfKey`: a fix that, given that time, equals it differs
    /// from it in its time alone (one copy of a fix a hit, where keeping the fix itself took
    /// two). The sentences sent (bits of the dialect's order), the start of the UTC day and the
    /// time written.
    let timelessFix: Fix
    let sent: UInt64
    let day: UTCInstant
    var time: NMEATime
    var lines: [[UInt8]]
    /// Where the time's text starts in each line that has one, by line.
    let timeStarts: [(line: Int, start: Int)]

    /// The time the key's fix is given.
    static var timeOfKey: UTCInstant { UTCInstant(nanosecondsSinceEpoch: 0) }

    /// `fix` without its time: given `timeOfKey`.
    static func timeless(_ fix: Fix) -> Fix {
      var timeless = fix
      timeless.time = timeOfKey
      return timeless
    }

    init(
      fix: Fix, sent: UInt64, day: UTCInstant, time: NMEATime, lines: [[UInt8]],
      timeStarts: [(line: Int, start: Int)]
    ) {
      timelessFix = Self.timeless(fix)
      self.sent = sent
      self.day = day
      self.time = time
      self.lines = lines
      self.timeStarts = timeStarts
    }
  }

  private let kept = Mutex<Kept?>(nil)

  init() {}

  /// The lines of an epoch of `fix` that sends `sent` and writes `time` on `day`, from the last
  /// epoch's when they differ in the time alone; nil otherwise.
  func lines(for fix: Fix, sent: UInt64, day: UTCInstant, time: NMEATime) -> [[UInt8]]? {
    kept.withLock { kept -> [[UInt8]]? in
      guard let last = kept, last.sent == sent, last.day == day else { return nil }
      guard Kept.timeless(fix) == last.timelessFix else { return nil }
      if time != last.time {
        guard let patch = LineTimePatch(from: last.time, to: time) else { return nil }
        // In place: the lines of the epoch before are the memo's alone once it has been sent.
        for (line, start) in last.timeStarts {
          guard patch.patch(&last.lines[line], timeStart: start) else {
            // Not the line kept: nothing is kept any more.
            kept = nil
            return nil
          }
        }
      }
      last.time = time
      return last.lines
    }
  }

  /// Keeps an epoch's lines, written anew, for the next; `timeFields` gives the number of each
  /// line's time field (nil for a sentence without one).
  func keep(
    _ lines: [[UInt8]], timeFields: [Int?], fix: Fix, sent: UInt64, day: UTCInstant,
    time: NMEATime
  ) {
    var timeStarts: [(line: Int, start: Int)] = []
    for (line, field) in zip(lines.indices, timeFields) {
      guard let field else { continue }
      guard let start = LineTimePatch.timeStart(inLine: lines[line], timeField: field) else {
        // A line whose time cannot be found is never patched: no epoch is kept.
        kept.withLock { $0 = nil }
        return
      }
      timeStarts.append((line, start))
    }
    kept.withLock {
      $0 = Kept(fix: fix, sent: sent, day: day, time: time, lines: lines, timeStarts: timeStarts)
    }
  }
}
