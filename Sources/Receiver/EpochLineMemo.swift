import NMEA
import Synchronization

/// The lines of a device's last epoch, each with the sentence it was written from, by type and
/// occurrence (the third GSV page): a sentence equal to the last one of its type and
/// occurrence takes that line instead of being written again. At 10 Hz the GSV pages and GSA
/// change once a second (the signal strengths, the geometry in whole degrees) and VTG at rest
/// never, so most of an epoch's text is the last epoch's; comparing two sentences costs a
/// fraction of writing one. A sentence sent only on some epochs (a rate of one in five) moves
/// the ones after it to other places, not to other keys.
///
/// A line is a function of its sentence (`SentenceBody.lineBytes`), and two equal sentences
/// write the same line where their strings are ASCII, as every string the epoch encoder writes
/// is (talkers, units, modes: constants of its dialects). (Swift's `==` on strings is canonical
/// equivalence: "é" precomposed equals "e" with a combining accent, whose bytes differ.) So the
/// memo only saves work: copies of an encoder that share it, or epochs taken out of order, get
/// the bytes they would get without it.
final class EpochLineMemo: Sendable {
  /// One key's sentence and line, changed in place while the key keeps its type.
  private final class Entry<Body: SentenceBody> {
    var sentence: Body
    var line: [UInt8]

    init(_ sentence: Body) {
      self.sentence = sentence
      line = sentence.lineBytes
    }
  }

  /// A key's entry: an `Entry` whose class tells the sentence type, so that a lookup compares
  /// two type pointers instead of casting.
  private struct Slot {
    var type: ObjectIdentifier
    var occurrence: Int
    var entry: AnyObject
  }

  /// The slots, in the order of the epoch that made them.
  private let slots = Mutex<[Slot]>([])

  init() {}

  /// The line of `sentence`, the `occurrence`-th of its type in its epoch (from 0), whose slot
  /// is looked for at `place` first (where it was last epoch when the epoch is as the last).
  func line<Body: SentenceBody>(for sentence: Body, occurrence: Int, near place: Int) -> [UInt8] {
    let type = ObjectIdentifier(Entry<Body>.self)
    return slots.withLock { slots in
      let isHere = { (slot: Slot) in slot.type == type && slot.occurrence == occurrence }
      let index =
        slots.indices.contains(place) && isHere(slots[place])
        ? place : slots.firstIndex(where: isHere)
      guard let index else {
        let entry = Entry(sentence)
        slots.append(Slot(type: type, occurrence: occurrence, entry: entry))
        return entry.line
      }
      let entry = unsafeDowncast(slots[index].entry, to: Entry<Body>.self)
      if entry.sentence != sentence {
        entry.sentence = sentence
        entry.line = sentence.lineBytes
      }
      return entry.line
    }
  }
}
