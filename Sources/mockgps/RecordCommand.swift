import DeviceTerminal
import Glibc
import MockGPS
import NMEA
import SystemIO

extension ExitCode {
  /// The output file cannot be created (EX_CANTCREAT).
  static let cannotCreate: Int32 = 73
  /// Writing the output failed midway, a full disk (EX_IOERR).
  static let ioError: Int32 = 74
}

/// `mockgps record DEVICE --out FILE`: record a terminal until a termination signal or until
/// it hangs up, then say what was recorded.
enum RecordCommand {
  static func execute(_ options: RecordOptions) -> Int32 {
    // First, before any thread starts: a signal from now on ends the recording cleanly.
    let stop: SignalNotifier
    do {
      stop = try SignalNotifier(.termination)
    } catch {
      RunCommand.writeError("mockgps: \(error)\n")
      return ExitCode.failure
    }
    let recorder: TerminalRecorder
    do {
      recorder = try TerminalRecorder(
        devicePath: options.devicePath, outputPath: options.outputPath, baud: options.baud,
        overwrite: options.overwrite)
    } catch {
      RunCommand.writeError("mockgps: \(error)\n" + (hint(error).map { "hint: \($0)\n" } ?? ""))
      return exitCode(error)
    }
    let summary = recorder.record(until: stop.pollRequest)
    RunCommand.writeError(report(summary, options, signal: stop.receivedSignal) + "\n")
    switch summary.ending {
    case .stopped, .hungUp: return ExitCode.success
    case .failed: return ExitCode.failure
    case .cannotWrite: return ExitCode.ioError
    }
  }

  /// `mockgps: recorded 15 records, 9876 bytes in 3.012 s from /dev/ttyUSB0 to gps.rec (SIGINT)`.
  static func report(_ summary: TerminalRecorder.Summary, _ options: RecordOptions, signal: Int32?)
    -> String
  {
    // Rounded to the nearest millisecond, half away from zero, as every formatted number.
    let milliseconds = (summary.durationNanoseconds + 500_000) / 1_000_000
    let seconds = NMEADecimal(units: milliseconds, fractionDigits: 3).description
    let text =
      "mockgps: recorded \(summary.records) record\(summary.records == 1 ? "" : "s"), "
      + "\(summary.bytes) byte\(summary.bytes == 1 ? "" : "s") in \(seconds) s "
      + "from \(options.devicePath) to \(options.outputPath)"
    switch summary.ending {
    case .stopped: return text + " (\(signal.map(RunCommand.signalName) ?? "stopped"))"
    case .hungUp: return text + " (the device hung up)"
    case .failed(let error), .cannotWrite(let error): return text + "; stopped: \(error)"
    }
  }

  static func exitCode(_ error: TerminalRecorder.SetupError) -> Int32 {
    switch error {
    case .cannotOpenDevice, .cannotConfigure, .foreignTerminal: return ExitCode.noInput
    case .notATerminal: return ExitCode.dataError
    case .outputExists, .cannotCreate: return ExitCode.cannotCreate
    }
  }

  static func hint(_ error: TerminalRecorder.SetupError) -> String? {
    switch error {
    case .cannotOpenDevice(let error) where error.errno == EACCES:
      return "add your user to the group of the device (dialout for serial ports)"
    case .cannotOpenDevice(let error) where error.errno == EBUSY:
      return "another program holds the device exclusively (gpsd?)"
    case .outputExists: return "give --force to overwrite it"
    default: return nil
    }
  }
}
