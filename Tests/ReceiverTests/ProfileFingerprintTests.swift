import Foundation
import NMEA
import Receiver
import Simulation
import TestFixtures
import Testing

/// Each non-generic profile against the real capture of its chip in gpsd's regression logs:
/// the epoch the capture sent, rebuilt as a fix and written by the profile's encoder, must have
/// the same fingerprint (`NMEAFingerprint`), apart from the differences listed with reasons.
@Suite struct ProfileFingerprintTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let profile: ReceiverProfile
    let log: String
    /// The sentence type that starts an epoch in the capture.
    let firstType: String
    /// Capture sentence types mockgps does not send, with the reason.
    let ignored: [String: String]
    /// Types the capture's owner switched on beyond the factory output.
    let enabledInCapture: [String]
    /// The line speed of the capture.
    let baud: Int
    /// Differences accepted, by `NMEAFingerprint.Difference.key`, with the reason.
    let accepted: [String: String]
    var testDescription: String { profile.name }
  }

  static let nmea410Fields = "the capture's firmware writes NMEA 4.0; the profile is set to 4.10"

  static let cases: [Case] = [
    Case(
      profile: .ubloxM8, log: "neo-m8n.log", firstType: "RMC", ignored: [:],
      enabledInCapture: [], baud: 9600,
      accepted: [
        "GNRMC field count": "\(nmea410Fields), which adds RMC's navigational status",
        "GNGSA field count": "\(nmea410Fields), which adds GSA's system ID",
        "GPGSV field count": "\(nmea410Fields), which adds GSV's signal ID",
        "GLGSV field count": "\(nmea410Fields), which adds GSV's signal ID",
      ]),
    Case(
      profile: .ubloxF9P, log: "ublox-zed-f9p-nmea.log", firstType: "RMC",
      ignored: ["GBS": "satellite fault detection is not emulated (no faulty satellite)"],
      enabledInCapture: ["GST", "ZDA"], baud: 38400,
      accepted: [
        "GNGST field 2": "the capture's RMS is an unconverged figure of 2 to 6 integer digits; "
          + "mockgps writes the user range error with one decimal",
        "GNGST field 3":
          "the capture leaves the error ellipse empty; mockgps fills it from the DOPs",
        "GNGST field 4":
          "the capture leaves the error ellipse empty; mockgps fills it from the DOPs",
        "GNGST field 5":
          "the capture leaves the error ellipse empty; mockgps fills it from the DOPs",
        "GPGSV satellite snr": "the capture does not track every second signal (L2); mockgps "
          + "reports the same C/N0 on both signals",
        "GLGSV satellite snr": "the capture does not track every second signal; mockgps reports "
          + "the same C/N0 on both signals",
        "GAGSV satellite snr": "the capture does not track every second signal; mockgps reports "
          + "the same C/N0 on both signals",
        "GBGSV satellite snr": "the capture does not track every second signal; mockgps reports "
          + "the same C/N0 on both signals",
      ]),
    Case(
      profile: .mtk, log: "mtk-3301.log", firstType: "GGA",
      ignored: [
        "MTKCHN": "MediaTek's channel-status debug sentence; gpsd ignores it",
        "OLYN": "a vendor sentence of the capture's host logger, not the chip",
      ], enabledInCapture: [], baud: 9600, accepted: [:]),
    Case(
      profile: .sirf, log: "sirfstarv-nmea.log", firstType: "GGA", ignored: [:],
      enabledInCapture: [], baud: 4800, accepted: [:]),
  ]

  /// The capture's epochs with a fix, without the ignored types.
  static func captureEpochs(_ row: Case) throws -> [[RawSentence]] {
    let lines = try Fixtures.nmeaLines(of: Fixtures.gpsdLog(row.log)).map(\.text)
    let epochs = NMEAFingerprint.epochs(
      lines, firstType: row.firstType, ignoring: Set(row.ignored.keys))
    // The first epoch may start mid-way; the last counts when it ends as the one before it.
    var complete = Array(epochs.dropFirst())
    if complete.count > 1, complete.last?.last?.type != complete.dropLast().last?.last?.type {
      complete.removeLast()
    }
    return complete.filter { epoch in
      epoch.contains { raw in
        raw.type == "GGA" && ((try? GGA(raw))?.quality?.integerValue ?? 0) > 0
      }
    }
  }

  /// The encoder of a profile with the output the capture's chip had.
  static func encoder(_ row: Case) -> ReceiverEncoder {
    var encoder = ReceiverEncoder(profile: row.profile)
    encoder.output = row.profile.defaultOutput(baud: row.baud)
    for type in row.enabledInCapture { encoder.output.nmea[type] = 1 }
    return encoder
  }

  @Test(arguments: cases)
  func theFullestEpochOfTheCaptureHasTheProfilesFingerprint(_ row: Case) throws {
    let epochs = try Self.captureEpochs(row)
    let allTypes = Set(epochs.joined().map(\.type))
    let full = try #require(epochs.last { Set($0.map(\.type)) == allTypes })
    let fix = try CaptureEpoch.fix(full)
    var encoder = Self.encoder(row)
    encoder.output = OutputSelection(nmeaEveryEpoch: allTypes)
    let ours = encoder.sentences(for: fix, epochIndex: 0)
    let differences = NMEAFingerprint.differences(capture: full, ours: ours)
    for difference in differences where row.accepted[difference.key] == nil {
      Issue.record("\(row.profile.name) against \(row.log): \(difference)")
    }
    #expect(
      Set(differences.map(\.key)) == Set(row.accepted.keys), "every accepted difference occurs")
    #expect(full.count > 3)
  }

  @Test(arguments: cases)
  func theEpochsCycleThroughTheCapturesSentenceSets(_ row: Case) throws {
    let epochs = try Self.captureEpochs(row)
    let fix = try CaptureEpoch.fix(try #require(epochs.last))
    let encoder = Self.encoder(row)
    let theirs = Set(epochs.map { Self.typeSequence($0) })
    let ours = Set((0..<10).map { Self.typeSequence(encoder.sentences(for: fix, epochIndex: $0)) })
    #expect(ours == theirs, "\(row.profile.name) against \(row.log)")
  }

  /// An epoch's addresses with repeats of the same address (GSV pages) merged.
  static func typeSequence(_ epoch: [RawSentence]) -> String {
    var addresses: [String] = []
    for raw in epoch where addresses.last != raw.address { addresses.append(raw.address) }
    return addresses.joined(separator: " ")
  }
}
