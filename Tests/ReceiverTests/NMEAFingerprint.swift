import Geodesy
import NMEA
import Simulation

/// The structure of NMEA epochs, without their values: sentence types and order, talkers, field
/// counts, and every field's width and decimals (`4404.14047` is `4.5`, `A` is `t1`, empty
/// stays empty).
enum NMEAFingerprint {
  /// The shape of one field.
  static func shape(_ text: String) -> String {
    if text.isEmpty { return "" }
    guard let number = NMEADecimal(text), !number.hasPlusSign else { return "t\(text.count)" }
    let sign = number.isNegative ? "-" : ""
    guard let fraction = number.fractionDigits else { return "\(sign)\(number.integerDigits)" }
    return "\(sign)\(number.integerDigits).\(fraction)"
  }

  /// One difference between a capture's sentence and ours: where, and the two shapes.
  struct Difference: Hashable, CustomStringConvertible {
    /// Where it is: `GNRMC field count`, `GNGGA field 7`, `GPGSV satellite snr`, `sentences`.
    let key: String
    let capture: String
    let ours: String
    var description: String { "\(key): capture \(capture), ours \(ours)" }
  }

  static let gsvGroupFields = ["id", "elevation", "azimuth", "snr"]

  /// The differences between two epochs, sentence by sentence.
  static func differences(capture: [RawSentence], ours: [RawSentence]) -> [Difference] {
    let captureAddresses = capture.map(\.address)
    let ourAddresses = ours.map(\.address)
    guard captureAddresses == ourAddresses else {
      return [
        Difference(
          key: "sentences", capture: captureAddresses.joined(separator: " "),
          ours: ourAddresses.joined(separator: " "))
      ]
    }
    var found: [Difference] = []
    for (theirs, mine) in zip(capture, ours) {
      if theirs.fields.count != mine.fields.count {
        found.append(
          Difference(
            key: "\(theirs.address) field count", capture: "\(theirs.fields.count)",
            ours: "\(mine.fields.count)"))
      }
      for index in 0..<min(theirs.fields.count, mine.fields.count) {
        let (a, b) = (shape(theirs.fields[index]), shape(mine.fields[index]))
        guard a != b else { continue }
        found.append(Difference(key: key(theirs, field: index), capture: a, ours: b))
      }
    }
    return found
  }

  /// A field's name in a difference: GSV satellite fields by their role, others by number (1 is
  /// the first field after the address).
  static func key(_ sentence: RawSentence, field index: Int) -> String {
    if sentence.type == "GSV", index >= 3 {
      let groups = (sentence.fields.count - 3) / 4
      if index < 3 + groups * 4 {
        return "\(sentence.address) satellite \(gsvGroupFields[(index - 3) % 4])"
      }
      return "\(sentence.address) signal ID"
    }
    return "\(sentence.address) field \(index + 1)"
  }

  /// A capture split into epochs: a new epoch starts at `firstType` after a sentence of
  /// another type. Sentences whose type is in `ignoring` are dropped.
  static func epochs(_ lines: [String], firstType: String, ignoring: Set<String>)
    -> [[RawSentence]]
  {
    var epochs: [[RawSentence]] = []
    var previousType = ""
    for line in lines {
      guard let raw = try? RawSentence(parsing: line), !ignoring.contains(raw.type) else {
        continue
      }
      if raw.type == firstType && previousType != firstType || epochs.isEmpty {
        epochs.append([])
      }
      epochs[epochs.count - 1].append(raw)
      previousType = raw.type
    }
    return epochs
  }
}
