/// The fields of `PMTK314` (set) and `PMTK514` (report): one rate per sentence type, 0 off, N
/// every N-th fix.
enum PMTKSentenceMix {
  /// The sentence of each field, nil for PMTK's own outputs (almanac, ephemeris, debug, channel
  /// status) this emulator does not send; the order of gpsd's `drivers.c` comment.
  static let fieldSentences: [String?] = [
    "GLL", "RMC", "VTG", "GGA", "GSA", "GSV", "GRS", "GST", nil, nil, nil, nil, nil, nil, nil,
    nil, nil, "ZDA", nil,
  ]

  /// `output` with the rates of `fields`; nil unless there are 19 to 21 fields, each 0–5.
  static func output(_ output: OutputSelection, applying fields: [String]) -> OutputSelection? {
    guard (fieldSentences.count...fieldSentences.count + 2).contains(fields.count) else {
      return nil
    }
    let rates = fields.map { Int($0) }
    guard rates.allSatisfy({ $0.map { (0...5).contains($0) } ?? false }) else { return nil }
    var changed = output
    for (sentence, rate) in zip(fieldSentences, rates) {
      guard let sentence, let rate else { continue }
      changed.nmea[sentence] = rate
    }
    return changed
  }

  /// The rates of `output` in field order.
  static func rates(of output: OutputSelection) -> [Int] {
    fieldSentences.map { sentence in sentence.flatMap { output.nmea[$0] } ?? 0 }
  }
}
