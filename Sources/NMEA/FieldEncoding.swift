/// How a field's value is written: one of a small closed set of kinds, each reading the stored
/// property of the sentence that holds the value at its offset.
///
/// The writer handles the kinds in one `switch` (`SentenceWriter.write(_:of:)`). A closure per
/// field cost a call through its context, the context's retain and release, and a copy of the
/// value out through a key path reader; an offset is a value, read in place.
@usableFromInline enum FieldEncoding: Sendable {
  /// An `NMEADecimal?`: one field.
  case decimal(offset: Int)
  /// A `String?` written as it is: one field.
  case text(offset: Int)
  /// An `NMEATime?`: one field, `hhmmss.ss`.
  case time(offset: Int)
  /// An `NMEADate?`: one field, `ddmmyy`.
  case date(offset: Int)
  /// An `NMEACoordinate?`: the value field and the hemisphere field.
  case coordinate(offset: Int)
  /// An `[NMEADecimal?]`: its values, then empty fields up to `count`.
  case decimals(offset: Int, count: Int)
  /// A `[GSV.Satellite]`: four fields per satellite, absent when there are none.
  case satellites(offset: Int)

  /// The offset of the stored property at `keyPath` in `Root`.
  ///
  /// Traps when the property is not stored (computed, or behind a class): a sentence table names
  /// the stored properties of its sentence, and every table is built by the tests.
  static func offset<Root>(of keyPath: PartialKeyPath<Root>, field name: String) -> Int {
    guard let offset = MemoryLayout<Root>.offset(of: keyPath) else {
      preconditionFailure("field '\(name)' of \(Root.self) is not a stored property")
    }
    return offset
  }
}

extension UnsafeRawPointer {
  /// The stored property of type `Value` at `offset`, in place.
  fileprivate func property<Value>(at offset: Int, as _: Value.Type) -> UnsafePointer<Value> {
    (self + offset).assumingMemoryBound(to: Value.self)
  }
}

extension SentenceWriter {
  /// Writes the fields `encoding` describes, from the sentence at `body`, and returns true; or
  /// returns false and writes nothing when the value is absent.
  @usableFromInline mutating func write(_ encoding: FieldEncoding, of body: UnsafeRawPointer)
    -> Bool
  {
    switch encoding {
    case .decimal(let offset):
      guard let value = body.property(at: offset, as: NMEADecimal?.self).pointee else {
        return false
      }
      startField()
      append(value)
    case .text(let offset):
      guard let value = body.property(at: offset, as: String?.self).pointee else { return false }
      startField()
      append(value)
    case .time(let offset):
      guard let value = body.property(at: offset, as: NMEATime?.self).pointee else {
        return false
      }
      startField()
      value.write(to: &self)
    case .date(let offset):
      guard let value = body.property(at: offset, as: NMEADate?.self).pointee else {
        return false
      }
      startField()
      value.write(to: &self)
    case .coordinate(let offset):
      guard let value = body.property(at: offset, as: NMEACoordinate?.self).pointee else {
        return false
      }
      startField()
      value.writeValue(to: &self)
      startField()
      append(ascii: value.hemisphereLetter)
    case .decimals(let offset, let count):
      let values = body.property(at: offset, as: [NMEADecimal?].self)
      for value in values.pointee { appendField(value) }
      appendEmptyFields(count - values.pointee.count)
    case .satellites(let offset):
      let satellites = body.property(at: offset, as: [GSV.Satellite].self)
      guard !satellites.pointee.isEmpty else { return false }
      for satellite in satellites.pointee {
        appendField(satellite.id)
        appendField(satellite.elevation)
        appendField(satellite.azimuth)
        appendField(satellite.snr)
      }
    }
    return true
  }
}
