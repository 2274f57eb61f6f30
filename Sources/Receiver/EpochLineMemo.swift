import NMEA
import Synchronization

/// The lines of a device's last epoch, by place, with the sentence each was written from: a
/// sentence equal to the one at its place the epoch before takes that line instead of being
/// written again. At 10 Hz the GSV pages and GSA change once a second (the signal strengths,
/// the geometry in whole degrees) and VTG at rest never, so most of an epoch's text is the
/// last epoch's; comparing two sentences costs a fraction of writing one.
///
/// A line is a function of its sentence alone (`SentenceBody.lineBytes`), so the memo only
/// saves work: copies of an encoder that share it, or epochs taken out of order, get the same
/// bytes as without it.
final class EpochLineMemo: Sendable {
  /// One place's sentence and line, changed in place while the place keeps its type.
  private final class Entry<Body: SentenceBody> {
    var sentence: Body
    var line: [UInt8]

    init(_ sentence: Body) {
      self.sentence = sentence
      line = sentence.lineBytes
    }
  }

  /// An `Entry` of its place's sentence type for each place; known by its class, so that a
  /// lookup compares two type pointers instead of casting.
  private let entries = Mutex<[AnyObject]>([])

  init() {}

  /// The line of `sentence`, the `place`-th of its epoch.
  func line<Body: SentenceBody>(for sentence: Body, at place: Int) -> [UInt8] {
    entries.withLock { entries in
      if place < entries.count,
        ObjectIdentifier(type(of: entries[place])) == ObjectIdentifier(Entry<Body>.self)
      {
        let entry = unsafeDowncast(entries[place], to: Entry<Body>.self)
        if entry.sentence != sentence {
          entry.sentence = sentence
          entry.line = sentence.lineBytes
        }
        return entry.line
      }
      let entry = Entry(sentence)
      if place < entries.count {
        entries[place] = entry
      } else if place == entries.count {
        entries.append(entry)
      }
      return entry.line
    }
  }
}
