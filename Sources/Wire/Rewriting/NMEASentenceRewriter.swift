/// Rewrites the time, date and position fields of one NMEA sentence (see
/// `NMEASentenceLayout` for which sentences and fields).
///
/// A sentence comes back unchanged (nil) when it has nothing to rewrite, when gpsd rejects its
/// checksum, or when any field to rewrite is malformed (letters, out of range): it is
/// then replayed as recorded. Empty fields stay empty.
package enum NMEASentenceRewriter {
  /// The sentence rewritten, or nil to send it as recorded.
  ///
  /// - Parameters:
  ///   - shiftNanoseconds: added to every time and date.
  ///   - mover: moves positions, if the track is moved.
  package static func rewrite(
    _ bytes: [UInt8], shiftNanoseconds: Int64, mover: inout (some PositionMapping)?
  ) -> [UInt8]? {
    guard var sentence = NMEASentenceText(bytes), let layout = NMEASentenceLayout.of(sentence)
    else { return nil }
    var changed = false
    if shiftNanoseconds != 0 {
      guard shiftTimes(of: &sentence, layout: layout, by: shiftNanoseconds) else { return nil }
      changed = true
    }
    if mover != nil, !layout.positions.isEmpty, !layout.saysNoFix(sentence) {
      guard movePositions(of: &sentence, layout: layout, mover: &mover) != nil else { return nil }
      changed = true
    }
    // A sentence that grew (a position with more degree digits than recorded) past the longest
    // line a reader frames as one would come out as a sentence and garbage: sent as recorded.
    guard changed,
      sentence.bytes.count < TextLineFramer.maximumLength || sentence.bytes.count <= bytes.count
    else { return nil }
    return sentence.bytes
  }

  /// Shifts the time, date and GPS week fields; false when one is malformed.
  private static func shiftTimes(
    of sentence: inout NMEASentenceText, layout: NMEASentenceLayout, by shift: Int64
  ) -> Bool {
    let times = NMEATimeShift(shiftNanoseconds: shift)
    if let time = layout.time, time < sentence.fields.count {
      guard times.shiftTimeAndDate(of: &sentence, time: time, date: layout.date) else {
        return false
      }
    }
    if let week = layout.gpsWeek {
      guard times.shiftGPSWeek(of: &sentence, week: week.week, seconds: week.seconds) else {
        return false
      }
    }
    return true
  }

  /// Moves every position and returns how many were moved (a position at exactly 0° 0° is
  /// not: it is no fix); nil when one is malformed or only half there (then nothing is moved).
  package static func movePositions(
    of sentence: inout NMEASentenceText, layout: NMEASentenceLayout,
    mover: inout (some PositionMapping)?
  ) -> Int? {
    var read: [(NMEASentenceLayout.Position, NMEACoordinateField, NMEACoordinateField)] = []
    for position in layout.positions {
      let fields = [
        position.latitude, position.latitude + 1, position.longitude,
        position.longitude + 1,
      ].map { sentence[$0] }
      if fields.allSatisfy(\.isEmpty) { continue }
      guard position.longitude + 1 < sentence.fields.count,
        let latitude = NMEACoordinateField(
          value: fields[0], hemisphere: fields[1], isLatitude: true),
        let longitude = NMEACoordinateField(
          value: fields[2], hemisphere: fields[3], isLatitude: false)
      else { return nil }
      if latitude.degrees == 0 && longitude.degrees == 0 { continue }
      read.append((position, latitude, longitude))
    }
    var count = 0
    for (position, latitude, longitude) in read {
      guard let moved = mover?.moved(latitude: latitude.degrees, longitude: longitude.degrees)
      else { continue }
      count += 1
      let newLatitude = latitude.written(degrees: moved.latitude)
      let newLongitude = longitude.written(degrees: moved.longitude)
      sentence.set(position.latitude, newLatitude.value)
      sentence.set(position.latitude + 1, newLatitude.hemisphere)
      sentence.set(position.longitude, newLongitude.value)
      sentence.set(position.longitude + 1, newLongitude.hemisphere)
    }
    return count
  }
}
