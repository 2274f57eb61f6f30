import NMEA

extension SentenceSpec {
  /// `fieldNumber(of:)` for a table of field numbers: a property the spec does not hold is a
  /// mistake in the table, so it traps.
  package func knownFieldNumber(of keyPath: PartialKeyPath<Body>) -> Int {
    guard let number = fieldNumber(of: keyPath) else {
      preconditionFailure("\(type) has no field for \(keyPath)")
    }
    return number
  }

  /// The layout of this sentence type, each field named by the property NMEA parses it into and
  /// numbered by `fieldNumber(of:)`: one table gives where a field is, for parsing, encoding and
  /// rewriting in place.
  func layout(
    time: PartialKeyPath<Body>? = nil, date: PartialKeyPath<Body>? = nil,
    separateDate: (
      day: PartialKeyPath<Body>, month: PartialKeyPath<Body>, year: PartialKeyPath<Body>
    )? =
      nil,
    positions: [(latitude: PartialKeyPath<Body>, longitude: PartialKeyPath<Body>)] = [],
    noFix: (field: PartialKeyPath<Body>, values: [String])? = nil,
    meanSeaLevelAltitude: PartialKeyPath<Body>? = nil,
    geoidSeparation: PartialKeyPath<Body>? = nil
  ) -> NMEASentenceLayout {
    let number = knownFieldNumber
    var dateFields: NMEASentenceLayout.DateFields?
    if let date { dateFields = .dayMonthYear(number(date)) }
    if let separateDate {
      dateFields = .separate(
        day: number(separateDate.day), month: number(separateDate.month),
        year: number(separateDate.year))
    }
    return NMEASentenceLayout(
      time: time.map(number), date: dateFields,
      positions: positions.map {
        NMEASentenceLayout.Position(latitude: number($0.latitude), longitude: number($0.longitude))
      },
      noFix: noFix.map { (number($0.field), $0.values) },
      meanSeaLevelAltitude: meanSeaLevelAltitude.map(number),
      geoidSeparation: geoidSeparation.map(number))
  }
}
