import Foundation
import Glibc
import MockGPSTestSupport
import Testing

/// The README's quick start after the start line (`cat` the device, the epoch shown, gpsd and
/// gpspipe on it) and the figures of its budget warnings, run on a link in a scratch folder.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct ReadmeReceiverExamplesTests {
  /// The quick start's receiver, started at the time of the epoch shown: `cat` prints that
  /// epoch byte for byte; then gpsd takes the device for an NMEA receiver and gpspipe shows
  /// TPV mode 3 at exactly the position given.
  @Test func theQuickStartEpochIsWhatCatPrintsAndGpsdReadsThePosition() throws {
    let start = try ReadmeBlock.containing(".build/release/mockgps run --link /dev/ttyMOCKGPS")
    let arguments = start.lines.dropFirst(2).joined(separator: " ")
      .replacing("\\", with: "").split(separator: " ").dropFirst(2).map(String.init)
    #expect(arguments.first == "--link" && arguments.contains("51.477928,-0.001545,46"))
    let shown = try ReadmeBlock.containing("$GPZDA,")
    let firstShown = try #require(shown.lines.first)
    let time = try #require(firstShown.split(separator: ",").dropFirst().first)
    #expect(firstShown.contains(",291126,"), "the epoch shown is of 2026-11-29")
    let directory = try ScratchDirectory("readme-quick")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    // Three seconds before the epoch shown, so that `cat` is open when it goes out.
    let seconds = try #require(Int(time.prefix(6).suffix(2)))
    let startTime =
      "2026-11-29T\(time.prefix(2)):\(time.dropFirst(2).prefix(2)):"
      + String(format: "%02dZ", seconds - 3)
    let (receiver, _) = try MockGPSBinary.start(
      arguments.map { $0 == "/dev/ttyMOCKGPS" ? link : $0 } + [
        "--start-time", startTime, "--no-control",
      ])
    defer { receiver.kill() }

    let commands = try ReadmeBlock.containing("gpspipe -w")
    let cat = try TestProcess(
      "/bin/sh",
      [
        "-c",
        "exec "
          + ReadmeBlock.command(try commands.line(containing: "cat "), [("/dev/ttyMOCKGPS", link)]),
      ])
    defer { cat.kill() }
    let last = try #require(shown.lines.last)
    cat.wait(seconds: 6) { cat.standardOutput.contains(last) }
    cat.kill()
    // "\r\n" is one Character: split at it as at any newline.
    let lines = cat.standardOutput.split(whereSeparator: \.isNewline).map(String.init)
    let from = try #require(lines.firstIndex(of: firstShown), "\(cat.standardOutput)")
    #expect(Array(lines[from...].prefix(shown.lines.count)) == shown.lines)

    // gpsd as printed (its port substituted), and gpspipe -w on that port.
    let gpsd = try #require(GpsdSession.gpsd, "gpsd is not installed (scripts/test installs it)")
    let gpspipe = try #require(GpsdSession.gpspipe, "gpspipe is not installed")
    let gpsdLine = ReadmeBlock.command(try commands.line(containing: "gpsd -N"), [])
      .replacing(" &", with: "")
    #expect(gpsdLine == "gpsd -N -n /dev/ttyMOCKGPS")
    let port = try GpsdSession.freePort()
    let daemon = try TestProcess(gpsd, ["-N", "-n", "-S", String(port), link])
    defer { daemon.kill() }
    #expect(daemon.wait(seconds: 5) { GpsdSession.listening(port) })
    let pipe = try TestProcess(gpspipe, ["-w", "-n", "40", "127.0.0.1:\(port)"])
    defer { pipe.kill() }
    var fix: [String: Any]?
    pipe.wait(seconds: 20) {
      fix = pipe.standardOutput.split(whereSeparator: \.isNewline).lazy.compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }.first { $0["class"] as? String == "TPV" && $0["mode"] as? Int == 3 }
      return fix != nil
    }
    let tpv = try #require(fix, "no TPV mode 3: \(pipe.standardOutput) \(daemon.standardError)")
    #expect(abs((tpv["lat"] as? Double ?? 0) - 51.477928) < 1e-9, "\(tpv)")
    #expect(abs((tpv["lon"] as? Double ?? 0) + 0.001545) < 1e-9, "\(tpv)")
    #expect(tpv["altMSL"] as? Double == 46, "\(tpv)")
  }

  /// The bytes an epoch of `line` (one sentence a line, an epoch from each `$GPRMC`) has on the
  /// wire, CR LF included; the first epoch, perhaps caught midway, is left out.
  static func epochSizes(_ lines: [String]) -> [Int] {
    var sizes: [Int] = []
    var current: Int?
    for line in lines {
      if line.hasPrefix("$GPRMC") {
        if let size = current { sizes.append(size) }
        current = 0
      }
      current? += line.utf8.count + 2
    }
    return sizes
  }

  /// The MediaTek example's comment: at 9600 baud its epoch of about N bytes (M with GSA and
  /// GSV) does not fit in 100 ms; the warning counts the largest epoch's bytes as they go out
  /// at the README's 115200 baud. And 10 Hz at 9600 baud is warned about once at start.
  @Test func theBudgetWarningCountsTheBytesOfTheLargestEpoch() throws {
    let block = try ReadmeBlock.containing("mockgps run --profile mtk --rate 10")
    let comment = block.lines.joined(separator: " ")
    let figures = try #require(
      comment.firstMatch(of: /an epoch of\s+#?\s*about (\d+) bytes \((\d+) with GSA and GSV\)/),
      "\(comment)")
    let (small, large) = (Double(figures.1) ?? 0, Double(figures.2) ?? 0)
    let directory = try ScratchDirectory("readme-budget")
    defer { directory.remove() }
    let almanac = try #require(ReadmeRunExample.stand(in: "current.alm"))
    let line = ReadmeBlock.command(
      try block.line(containing: "--profile mtk"), [("current.alm", almanac)])
    // One simulated time for both runs, so that they see one sky.
    let pinned = ["--start-time", "2026-11-29T15:10:54Z", "--no-control"]
    var arguments = Array(line.split(separator: " ").dropFirst(2).map(String.init))
    arguments += ["--link", directory.path + "/tty"] + pinned
    #expect(arguments.contains("115200"))
    let (measured, _) = try MockGPSBinary.start(arguments)
    defer { measured.kill() }
    let reader = try DeviceReader(path: directory.path + "/tty")
    let sizes = Self.epochSizes(reader.readLines(200, timeoutSeconds: 3).map(\.text))
    measured.kill()
    try #require(sizes.count >= 10, "\(sizes)")

    let baud = try #require(arguments.firstIndex(of: "--baud"))
    arguments.removeSubrange(baud...(baud + 1))
    let (warned, _) = try MockGPSBinary.start(arguments)
    defer { warned.kill() }
    // Written before the ready line, but read from another pipe: it may come after it.
    _ = warned.wait(seconds: 10) {
      warned.standardError.contains(/warning: \d+ bytes per epoch need \d+ ms at 9600 baud/)
    }
    let warning = try #require(
      warned.standardError.firstMatch(
        of: /warning: (\d+) bytes per epoch need (\d+) ms at 9600 baud/),
      "\(warned.standardError)")
    let counted = try #require(Int(warning.1))
    #expect(counted == sizes.max(), "\(sizes)")
    // 8N1: ten bits a byte.
    #expect(Int(warning.2) == counted * 10 * 1000 / 9600)
    let least = Double(sizes.min() ?? 0)
    #expect(abs(least - small) <= small * 0.05, "about \(small): \(sizes)")
    #expect(abs(Double(counted) - large) <= large * 0.15, "about \(large): \(sizes)")

    let (generic, _) = try MockGPSBinary.start([
      "--link", directory.path + "/tty2", "--rate", "10", "--baud", "9600", "--no-control",
    ])
    defer { generic.kill() }
    generic.signal(SIGTERM)
    #expect(generic.exitStatus(within: 10) == 0)
    let warnings = generic.standardError.split(separator: "\n").filter {
      $0.contains("epochs will be skipped")
    }
    #expect(warnings.count == 1, "\(generic.standardError)")
  }
}
