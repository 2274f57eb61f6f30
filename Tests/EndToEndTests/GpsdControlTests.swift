import Foundation
import MockGPSTestSupport
import TestFixtures
import Testing

/// The real gpsd on the link while the receiver is changed through the control socket: gpsd
/// follows a position change within two epochs, reports no fix within two epochs of `fix none`,
/// and a 3D fix again after `fix 3d`.
///
/// An epoch's TPV carries the epoch's time (the sentences' UTC). A change accepted at T (when its
/// reply is in, wall clock) takes effect in the next epoch: the first TPV that shows it has a
/// time at most two periods after T.
@Suite(.blocking, .serialized) struct GpsdControlTests {
  static let start = (latitude: 51.477928, longitude: -0.001545)
  static let moved = (latitude: 48.858222, longitude: 2.2945, altitude: 35.0)

  @Test(.enabled(if: GpsdSession.runnable), .timeLimit(.minutes(10)), arguments: [1.0, 5.0])
  func gpsdFollowsPositionAndFixChangesWithinTwoEpochs(rate: Double) throws {
    let directory = try ScratchDirectory("gpsd-control")
    defer { directory.remove() }
    let (link, control) = (directory.path + "/ttyMOCKGPS", directory.path + "/control.sock")
    let (emulator, _) = try MockGPSBinary.start([
      "--link", link, "--control", control, "--rate", String(rate), "--baud", "115200",
      "--position", "\(Self.start.latitude),\(Self.start.longitude),46",
    ])
    defer { emulator.kill() }
    let gpsd = try GpsdSession(device: link, directory: directory, readOnly: true, reports: 100_000)
    defer { gpsd.stop() }
    let reports = TPVWatch(gpsd)
    let client = try ControlClient(path: control)
    let twoEpochs = 2 / rate

    try reports.next(within: 30, "a 3D fix at the start") {
      $0.mode == 3 && $0.isNear(Self.start.latitude, Self.start.longitude)
    }

    try client.accepted(
      #"{"cmd":"position","lat":48.858222,"lon":2.2945,"alt":35}"#)
    var accepted = Date().timeIntervalSince1970
    let moved = try reports.next(within: 10, "the new position") {
      $0.isNear(Self.moved.latitude, Self.moved.longitude)
    }
    #expect(moved.mode == 3)
    #expect(abs((moved.report["altMSL"] as? Double ?? 0) - Self.moved.altitude) < 0.05)
    #expect(try moved.time() <= accepted + twoEpochs, "\(moved.report), accepted at \(accepted)")

    try client.accepted(#"{"cmd":"fix","mode":"none"}"#)
    accepted = Date().timeIntervalSince1970
    let lost = try reports.next(within: 10, "no fix (mode 1)") { $0.mode == 1 }
    #expect(try lost.time() <= accepted + twoEpochs, "\(lost.report), accepted at \(accepted)")

    try client.accepted(#"{"cmd":"fix","mode":"3d"}"#)
    accepted = Date().timeIntervalSince1970
    let back = try reports.next(within: 10, "a 3D fix again") { $0.mode == 3 }
    #expect(back.isNear(Self.moved.latitude, Self.moved.longitude), "\(back.report)")
    #expect(try back.time() <= accepted + twoEpochs, "\(back.report), accepted at \(accepted)")
  }
}

/// One TPV report of gpsd.
struct TPV {
  let report: [String: Any]

  var mode: Int { report["mode"] as? Int ?? 0 }

  /// Within about a centimetre of the position.
  func isNear(_ latitude: Double, _ longitude: Double) -> Bool {
    abs((report["lat"] as? Double ?? .nan) - latitude) <= 2e-7
      && abs((report["lon"] as? Double ?? .nan) - longitude) <= 2e-7
  }

  /// The epoch's time, seconds since 1970.
  func time() throws -> Double {
    guard let text = report["time"] as? String,
      let date = try? Date(text, strategy: .iso8601)
    else { throw TestFailure("TPV without a time: \(report)") }
    return date.timeIntervalSince1970
  }
}

/// The TPV reports of a `GpsdSession`'s gpspipe, read as they come.
final class TPVWatch {
  private let session: GpsdSession
  private var consumed = 0

  init(_ session: GpsdSession) { self.session = session }

  /// The first TPV not yet looked at for which `matches` holds, waiting up to `seconds`.
  @discardableResult
  func next(within seconds: Double, _ what: String, where matches: (TPV) -> Bool) throws -> TPV {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
      // gpsd ends its lines with CR LF: one Character, a newline.
      let output = session.pipe.standardOutput
      let lines = output.split(whereSeparator: \.isNewline)
      // The last line may be incomplete: look at it once the next one has begun.
      let complete = output.last?.isNewline == true ? lines.count : lines.count - 1
      while consumed < complete {
        defer { consumed += 1 }
        guard
          let report = try? JSONSerialization.jsonObject(with: Data(lines[consumed].utf8))
            as? [String: Any], report["class"] as? String == "TPV"
        else { continue }
        let tpv = TPV(report: report)
        if matches(tpv) { return tpv }
      }
      guard Date() < deadline else {
        throw TestFailure(
          "no TPV with \(what) within \(seconds) s: \(session.transcript.suffix(2000))")
      }
      usleep(20_000)
    }
  }
}
