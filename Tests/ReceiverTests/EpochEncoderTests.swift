import Geodesy
import NMEA
import Receiver
import Simulation
import Testing

@Suite struct EpochEncoderTests {
  static let time = UTCInstant(
    year: 2026, month: 11, day: 29, hour: 14, minute: 39, second: 54, nanosecond: 100_000_000)

  static func fix(latitude: Double = 51.477928, longitude: Double = -0.001545) throws -> Fix {
    let position = try GeodeticPosition(
      latitude: latitude, longitude: longitude, altitudeMeters: 46)
    return Scene(motion: FixedPosition(position)).fix(at: time)
  }

  @Test func oneEpochIsTheSevenSentenceTypesInReceiverOrder() throws {
    let sentences = EpochEncoder().sentences(for: try Self.fix())
    #expect(
      sentences.map(\.address) == [
        "GPRMC", "GPVTG", "GPGGA", "GPGSA", "GPGSV", "GPGSV", "GPGSV", "GPGLL", "GPZDA",
      ])
  }

  @Test func everySentenceParsesBackAndFitsIn82Bytes() throws {
    let bytes = EpochEncoder().bytes(for: try Self.fix())
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.hasSuffix("\r\n"))
    let lines = text.split(separator: "\r\n")
    for line in lines {
      #expect(line.utf8.count + 2 <= 82)
      let message = try NMEAMessage(parsing: line)
      #expect(message.raw.description == String(line))
    }
  }

  @Test func timeFieldsAreTheEpochTime() throws {
    let sentences = EpochEncoder().sentences(for: try Self.fix())
    let rmc = try RMC(sentences[0])
    let gga = try GGA(sentences[2])
    let zda = try ZDA(sentences[8])
    #expect(rmc.time?.description == "143954.10")
    #expect(rmc.date?.description == "291126")
    #expect(gga.time == rmc.time)
    #expect(zda.year?.integerValue == 2026)
    #expect(zda.month?.integerValue == 11)
  }

  @Test(arguments: [
    (51.477928, -0.001545), (-45.8775915, 170.500124833), (0.0000001, -179.9999999),
    (89.99999999, 179.99999999), (-12.3456789, 0.0),
  ])
  func positionRoundTripsWithin2e7Degrees(latitude: Double, longitude: Double) throws {
    let sentences = EpochEncoder().sentences(
      for: try Self.fix(latitude: latitude, longitude: longitude))
    let gga = try GGA(sentences[2])
    let rmc = try RMC(sentences[0])
    let gll = try GLL(sentences[7])
    for decoded in [gga.latitude, rmc.latitude, gll.latitude] {
      #expect(abs(try #require(decoded).degreesValue - latitude) <= 2e-7)
    }
    for decoded in [gga.longitude, rmc.longitude, gll.longitude] {
      #expect(abs(try #require(decoded).degreesValue - longitude) <= 2e-7)
    }
  }

  @Test func gsaGgaAndGsvAgree() throws {
    let fix = try Self.fix()
    let sentences = EpochEncoder().sentences(for: fix)
    let gga = try GGA(sentences[2])
    let gsa = try GSA(sentences[3])
    let pages = try sentences[4...6].map { try GSV($0) }
    let used = gsa.satelliteIDs.compactMap { $0?.integerValue }
    #expect(used == fix.satellitesUsed.map(\.id))
    #expect(gga.satellitesUsed?.integerValue == used.count)
    #expect(gga.hdop == gsa.hdop)
    #expect(gsa.fixType?.integerValue == 3)
    #expect(pages.flatMap(\.satellites).count == fix.satellites.count)
    #expect(
      pages.allSatisfy {
        $0.messageCount?.integerValue == 3 && $0.satellitesInView?.integerValue == 10
      })
    #expect(pages.map { $0.messageNumber?.integerValue } == [1, 2, 3])
  }

  @Test func withoutAFixPositionIsEmptyAndStatusVoid() throws {
    var fix = try Self.fix()
    fix.mode = .noFix
    fix.dop = nil
    let text = EpochEncoder().sentences(for: fix).map(\.description)
    #expect(text[0] == "$GPRMC,143954.10,V,,,,,,,291126,,,N*7D")
    #expect(text[2].hasPrefix("$GPGGA,143954.10,,,,,0,00,,,M,,M,,*"))
  }

  @Test func aMixedSkyReportsOnlyTheTrackedConstellationsEverywhere() throws {
    var fix = try Self.fix()
    let glonass = [(1, 40.0, true), (8, 25.0, true), (16, 8.0, false)].map { id, el, used in
      SatelliteInView(
        constellation: .glonass, id: id, elevation: el, azimuth: 100, snr: 35, isUsed: used)
    }
    fix.satellites = glonass + fix.satellites
    let sentences = EpochEncoder().sentences(for: fix)
    let gga = try GGA(try #require(sentences.first { $0.type == "GGA" }))
    let gsa = try GSA(try #require(sentences.first { $0.type == "GSA" }))
    let listed = try sentences.filter { $0.type == "GSV" }.flatMap { try GSV($0).satellites }
    let usedIDs = Set(fix.satellitesUsed.map(\.id))
    let usedInGSV = listed.filter { usedIDs.contains($0.id?.integerValue ?? 0) }.count
    #expect(gga.satellitesUsed?.integerValue == 8)
    #expect(gsa.satelliteIDs.compactMap { $0 }.count == 8)
    #expect(usedInGSV == 8)
    #expect(listed.count == 10)
    let glonassIDs = Set(glonass.map { $0.id + 64 })
    #expect(gsa.satelliteIDs.allSatisfy { !glonassIDs.contains($0?.integerValue ?? 0) })
    #expect(listed.allSatisfy { !glonassIDs.contains($0.id?.integerValue ?? 0) })
  }

  @Test func aReceiverTrackingGLONASSTooCountsItsSatellites() throws {
    var fix = try Self.fix()
    fix.satellites.insert(
      SatelliteInView(
        constellation: .glonass, id: 1, elevation: 40, azimuth: 100, snr: 35, isUsed: true),
      at: 0)
    var encoder = EpochEncoder()
    encoder.constellations = [.gps, .glonass]
    let sentences = encoder.sentences(for: fix)
    let gga = try GGA(try #require(sentences.first { $0.type == "GGA" }))
    let gsa = try GSA(try #require(sentences.first { $0.type == "GSA" }))
    #expect(gga.satellitesUsed?.integerValue == 9)
    #expect(gsa.satelliteIDs.first??.integerValue == 65)
    let gsv = try GSV(try #require(sentences.first { $0.type == "GSV" }))
    #expect(gsv.satellitesInView?.integerValue == 11)
  }

  struct SentenceSetCase: CustomTestStringConvertible, Sendable {
    let enabled: Set<String>
    let addresses: [String]
    var testDescription: String { enabled.sorted().joined(separator: ",") }
  }

  @Test(arguments: [
    SentenceSetCase(enabled: ["ZDA", "GGA", "RMC"], addresses: ["GPRMC", "GPGGA", "GPZDA"]),
    SentenceSetCase(enabled: ["GSV"], addresses: ["GPGSV", "GPGSV", "GPGSV"]),
    SentenceSetCase(enabled: ["GLL", "GSA", "VTG"], addresses: ["GPVTG", "GPGSA", "GPGLL"]),
    SentenceSetCase(enabled: ["GGA", "XYZ", "gsv"], addresses: ["GPGGA"]),
    SentenceSetCase(enabled: [], addresses: []),
  ])
  func enabledSentencesAreSentInReceiverOrder(_ row: SentenceSetCase) throws {
    var encoder = EpochEncoder()
    encoder.enabledSentences = row.enabled
    #expect(encoder.sentences(for: try Self.fix()).map(\.address) == row.addresses)
  }

  @Test func allSevenSentenceTypesAreEnabledByDefault() {
    #expect(EpochEncoder().enabledSentences == ["RMC", "VTG", "GGA", "GSA", "GSV", "GLL", "ZDA"])
  }
}

@Suite struct ClientInputTests {
  @Test func commandsPassAndEchoOfSentSentencesIsDropped() throws {
    var input = ClientInput()
    let sent = [RawSentence(address: "GPZDA", fields: ["1"])]
    input.didSend(sent)
    let commands = input.receive(Array("$GPZDA,1*55\r\n$PMTK605*31\r\n".utf8))
    #expect(commands == [.nmea("$PMTK605*31")])
    #expect(input.echoedSentenceCount == 1)
  }

  /// What a device notes of the packets it sends (`EchoFingerprint.ofSentence`) recognises
  /// their echo: a sentence's text without its line ending, and nothing of a UBX frame.
  @Test func theFingerprintsOfSentPacketsRecogniseTheirEcho() {
    var input = ClientInput()
    let packets = [
      Array("$GPZDA,1*55\r\n".utf8), [0xB5, 0x62, 0x01, 0x07, 0x00, 0x00, 0x08, 0x19],
    ]
    #expect(EchoFingerprint.ofSentence(packets[1]) == nil)
    input.didSend(fingerprints: packets.compactMap(EchoFingerprint.ofSentence))
    let commands = input.receive(Array("$GPZDA,1*55\r\n$GPZDA,2*56\r\n".utf8))
    #expect(commands == [.nmea("$GPZDA,2*56")])
    #expect(input.echoedSentenceCount == 1)
  }

  @Test func echoMemoryIsBounded() {
    var input = ClientInput(echoMemory: 2)
    input.didSend((1...3).map { RawSentence(address: "GPZDA", fields: [String($0)]) })
    #expect(input.receive(Array("$GPZDA,1*55\n".utf8)) == [.nmea("$GPZDA,1*55")])
  }
}
