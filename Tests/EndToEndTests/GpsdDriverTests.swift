import MockGPSTestSupport
import TestFixtures
import Testing

/// gpsd 3.22's own drivers configuring each profile, through `Tests/Tools/gpsd_drivers.py`:
/// gpsd without `-b` probes and configures the u-blox, with no UBX-ACK-NAK in its `-D 6` log
/// but those the chip gives (the runner pairs each CFG-MSG gpsd writes with its answer);
/// `gpsctl -s 115200`, `-b` and `-n` leave the chip at that speed and in that mode (checked by
/// reading the device at the speed); gpsctl's probe (PMTK605) names the MTK-3301.
/// (`GpsdSiRFBinaryTests`: gpsd switches the SiRF to SiRF binary and keeps a 3D fix there.)
@Suite(.blocking) struct GpsdDriverTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let profile: String
    let baud: Int
    /// The arguments of `gpsd_drivers.py` after its subcommand's device.
    let check: [String]
    let subcommand: String
    var testDescription: String { "\(subcommand) \(profile) \(check.joined(separator: " "))" }
  }

  /// gpsd 3.22 configuring the F9P switches NAV-SOL and NAV-SVINFO on and then off through
  /// CFG-MSG before it knows the protocol version. The ZED-F9P has neither message (its
  /// interface description and configuration database list no UBX-NAV-SOL, UBX-NAV-SVINFO nor
  /// a CFG-MSGOUT key for them; NAV-SAT replaced NAV-SVINFO in protocol 27), and the legacy
  /// CFG-MSG of a message without a key is NAK'd (as the F9P profile does): these four NAKs,
  /// and no other. gpsd's regression capture of a ZED-F9P (`ublox-zed-f9p-hp.log`) holds the
  /// chip's output only, no ACK or NAK to compare with.
  static let cases = [
    Case(profile: "ublox-m8", baud: 9600, check: [], subcommand: "probe"),
    Case(
      profile: "ublox-f9p", baud: 38400, check: ["--nak", "01-06", "--nak", "01-30"],
      subcommand: "probe"),
    Case(profile: "ublox-m8", baud: 9600, check: ["115200", "--modes"], subcommand: "gpsctl"),
    Case(profile: "ublox-f9p", baud: 38400, check: ["115200", "--modes"], subcommand: "gpsctl"),
    Case(profile: "mtk", baud: 9600, check: ["MTK-3301"], subcommand: "identify"),
  ]

  @Test(
    .enabled(if: HostSoftwareOracle.runnable && GpsdSession.runnable), .timeLimit(.minutes(10)),
    arguments: cases)
  func gpsdDriverConfiguresTheReceiver(_ c: Case) throws {
    let oracle = try HostSoftwareOracle(
      profile: c.profile, baud: c.baud, name: "gpsd-driver-\(c.profile)")
    defer { oracle.stop() }
    let run = try oracle.run(
      "gpsd_drivers.py", [c.subcommand, oracle.device] + c.check, seconds: 150)
    #expect(run.passed, "\(run.output)")
  }
}
