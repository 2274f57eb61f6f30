import Testing

@testable import Wire

/// The layouts of the sentences NMEA parses, derived from their `SentenceSpec`s, are the field
/// numbers gpsd's `driver_nmea0183.c` reads (and the ones this table held before it was
/// derived).
@Suite struct NMEASentenceLayoutTests {
  static func layout(_ key: String) throws -> NMEASentenceLayout {
    try #require(NMEASentenceLayout.table[key])
  }

  static func numbers(_ layout: NMEASentenceLayout) -> [Int] {
    layout.positions.flatMap { [$0.latitude, $0.longitude] }
  }

  @Test func gga() throws {
    let layout = try Self.layout("GGA")
    #expect(layout.time == 1)
    #expect(Self.numbers(layout) == [2, 4])
    #expect(layout.noFix?.field == 6)
    #expect(layout.noFix?.values == ["0"])
    #expect(layout.meanSeaLevelAltitude == 9)
    #expect(layout.geoidSeparation == 11)
    #expect(layout.date == nil && layout.ellipsoidHeight == nil)
  }

  @Test func gll() throws {
    let layout = try Self.layout("GLL")
    #expect(layout.time == 5)
    #expect(Self.numbers(layout) == [1, 3])
    #expect(layout.noFix?.field == 6)
    #expect(layout.noFix?.values == ["V"])
  }

  @Test func rmc() throws {
    let layout = try Self.layout("RMC")
    #expect(layout.time == 1)
    guard case .dayMonthYear(9) = layout.date else {
      Issue.record("RMC's date is \(String(describing: layout.date))")
      return
    }
    #expect(Self.numbers(layout) == [3, 5])
    #expect(layout.noFix?.field == 2)
  }

  @Test func gns() throws {
    let layout = try Self.layout("GNS")
    #expect(layout.time == 1)
    #expect(Self.numbers(layout) == [2, 4])
    #expect(layout.noFix?.field == 6)
    #expect(layout.meanSeaLevelAltitude == 9)
    #expect(layout.geoidSeparation == 10)
  }

  @Test func zdaAndGST() throws {
    let zda = try Self.layout("ZDA")
    #expect(zda.time == 1)
    guard case .separate(day: 2, month: 3, year: 4) = zda.date else {
      Issue.record("ZDA's date is \(String(describing: zda.date))")
      return
    }
    #expect(try Self.layout("GST").time == 1)
  }
}
