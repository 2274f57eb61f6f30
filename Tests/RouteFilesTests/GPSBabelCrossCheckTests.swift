import Foundation
import Geodesy
import RouteFiles
import Simulation
import TestFixtures
import Testing

/// GPSBabel converts a real GPX track to KML, GeoJSON and CSV; each conversion must load as the
/// same points. GPSBabel is an independent reader and writer of all four formats.
@Suite(.blocking) struct GPSBabelCrossCheckTests {
  static let source = "garmin_with_extensions.gpx"

  struct Conversion: CustomTestStringConvertible, Sendable {
    /// GPSBabel's output format and options.
    var format: String
    var fileName: String
    /// The decimals GPSBabel writes coordinates with (nil: full precision).
    var decimals: Int?
    var carriesTime: Bool
    var testDescription: String { format }
  }

  static let conversions = [
    // A gx:Track with 9 decimals.
    Conversion(
      format: "kml,prec=9,points=0,track=1", fileName: "t.kml", decimals: 9, carriesTime: true),
    // GPSBabel's default KML: untimed LineStrings beside timestamped Point placemarks.
    Conversion(format: "kml", fileName: "p.kml", decimals: 6, carriesTime: true),
    Conversion(format: "geojson", fileName: "g.json", decimals: nil, carriesTime: false),
    // Date and Time columns, 6 decimals.
    Conversion(format: "unicsv", fileName: "u.csv", decimals: 6, carriesTime: true),
  ]

  @Test(arguments: conversions)
  func gpsbabelsConversionLoadsAsTheSamePoints(_ conversion: Conversion) throws {
    let gpsbabel = try #require(
      Self.gpsbabelPath(),
      "gpsbabel is not installed: run scripts/install-deps --test (apt package gpsbabel)")
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent(conversion.fileName).path
    let conversionRun = try ChildProcess.run(
      gpsbabel,
      ["-t", "-i", "gpx", "-f", fixturePath(Self.source), "-o", conversion.format, "-F", output])
    try #require(conversionRun.status == 0, "\(conversionRun.errorText)")

    let expected = try RouteFile.load(path: fixturePath(Self.source)).points
    let converted = try RouteFile.load(path: output).points
    try #require(converted.count == expected.count)
    #expect(expected.count == 3540)
    for (index, (got, want)) in zip(converted, expected).enumerated() {
      let latitude = Self.rounded(want.position.latitude, conversion.decimals)
      let longitude = Self.rounded(want.position.longitude, conversion.decimals)
      #expect(abs(got.position.latitude - latitude) <= 1e-7, "point \(index)")
      #expect(abs(got.position.longitude - longitude) <= 1e-7, "point \(index)")
      #expect(got.time == (conversion.carriesTime ? want.time : nil), "point \(index)")
      if abs(got.position.latitude - latitude) > 1e-7
        || got.time != (conversion.carriesTime ? want.time : nil)
      {
        break
      }
    }
  }

  /// `value` as written with `decimals` decimals (unchanged for nil).
  static func rounded(_ value: Double, _ decimals: Int?) -> Double {
    guard let decimals else { return value }
    return Double(String(format: "%.\(decimals)f", value)) ?? .nan
  }

  static func gpsbabelPath() -> String? {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
    return folders.map { "\($0)/gpsbabel" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }
}
