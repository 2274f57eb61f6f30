import Glibc
import Replay
import Simulation
import SystemIO

/// Records what a terminal sends, as a client would read it, into mockgps's recording format
/// (`RecordingFormat`): every read becomes one record with its arrival time, written to the file
/// at once with one `write`, so that nothing read is lost when the recorder is stopped or killed.
///
/// The device stays open the whole time, in raw 8N1 mode, as gpsd keeps a receiver open.
public struct TerminalRecorder: ~Copyable {
  /// Why recording could not start.
  public enum SetupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device cannot be opened (missing, no permission, busy).
    case cannotOpenDevice(SystemError)
    /// The device is not a terminal (a regular file, /dev/null).
    case notATerminal(path: String)
    /// The path names another program's pseudo-terminal (a link left behind, its number taken
    /// since): it is left alone.
    case foreignTerminal(path: String, reason: String)
    /// The terminal refused raw mode or the speed.
    case cannotConfigure(SystemError)
    /// The output file exists and overwriting it was not asked for.
    case outputExists(path: String)
    /// The output file cannot be created or written.
    case cannotCreate(SystemError)

    public var description: String {
      switch self {
      case .cannotOpenDevice(let error), .cannotConfigure(let error), .cannotCreate(let error):
        return error.description
      case .notATerminal(let path): return "'\(path)' is not a terminal (a serial port or PTY)"
      case .foreignTerminal(let path, let reason): return "not opening '\(path)': \(reason)"
      case .outputExists(let path): return "'\(path)' exists"
      }
    }
  }

  /// How recording ended.
  public enum Ending: Hashable, Sendable {
    /// The stop descriptor became readable (a termination signal).
    case stopped
    /// The device hung up: the emulator went away, the receiver was unplugged.
    case hungUp
    /// Reading the device failed.
    case failed(SystemError)
    /// Writing the file failed (a full disk): what was written before stays.
    case cannotWrite(SystemError)
  }

  /// What was recorded.
  public struct Summary: Hashable, Sendable {
    public var records = 0
    public var bytes = 0
    /// From the start of `record` to its end, on the monotonic clock.
    public var durationNanoseconds: Int64 = 0
    public var ending = Ending.stopped
  }

  /// The largest read: a whole burst of an unpaced emulator fits.
  static let readSize = 65_536

  private let device: FileDescriptor
  private let output: FileDescriptor
  /// The line settings the device has, as `# Serial:` says them; nil for a non-standard speed.
  public let serial: LogHeader.Serial?

  /// Opens the device, creates the output file (mode 0644 less the umask), then sets the device
  /// raw (8N1, at `baud` when given, else at the speed it has) and writes the recording's
  /// header. A refusal leaves the device's settings as they were and no file behind: the
  /// device may be a port another program (gpsd) reads at its own speed.
  ///
  /// - Parameter overwrite: replace an existing output file instead of refusing; it is emptied
  ///   only once the device is set.
  public init(devicePath: String, outputPath: String, baud: Int?, overwrite: Bool)
    throws(SetupError)
  {
    let device = try Self.openDevice(devicePath)
    let original: TerminalAttributes
    do {
      original = try TerminalAttributes.read(from: device)
    } catch  where error.errno == ENOTTY || error.errno == EINVAL {
      throw .notATerminal(path: devicePath)
    } catch {
      throw .cannotConfigure(error)
    }
    let (descriptor, created) = try Self.createOutput(outputPath, overwrite: overwrite)
    let output = FileDescriptor(owning: descriptor)
    let serial: LogHeader.Serial?
    do throws(SetupError) {
      do throws(SystemError) {
        var attributes = original
        attributes.makeRaw()
        if let baud { attributes.setSpeed(baud: baud) }
        try attributes.apply(to: device)
        serial = try TerminalAttributes.read(from: device).baud.map { LogHeader.Serial(baud: $0) }
      } catch {
        throw SetupError.cannotConfigure(error)
      }
      var fields = [(name: "Device", value: devicePath)]
      if let serial { fields.append((name: "Serial", value: serial.description)) }
      let start = UTCInstant(nanosecondsSinceEpoch: SystemClock.nanosecondsSinceEpoch())
      fields.append((name: "Start", value: start.description))
      // A file replaced is emptied now; a device or pipe (/dev/null, /dev/stdout) is not one.
      var status = stat()
      if !created, fstat(output.rawValue, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        ftruncate(output.rawValue, 0) != 0
      {
        throw SetupError.cannotCreate(SystemError("empty", path: outputPath, errno: errno))
      }
      do throws(SystemError) {
        try Self.writeAll(RecordingFormat.header(fields), to: output)
      } catch {
        throw SetupError.cannotCreate(SystemError("write", path: outputPath, errno: error.errno))
      }
    } catch {
      try? original.apply(to: device)
      if created { unlink(outputPath) }
      throw error
    }
    self.device = device
    self.output = output
    self.serial = serial
  }

  /// Opens the output file for writing: created anew, or (`overwrite`) the existing one, not
  /// emptied yet. Returns its descriptor and whether it was created.
  private static func createOutput(_ path: String, overwrite: Bool) throws(SetupError) -> (
    descriptor: Int32, created: Bool
  ) {
    let created = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    if created >= 0 { return (created, true) }
    let error = errno
    guard error == EEXIST else {
      throw .cannotCreate(SystemError("create", path: path, errno: error))
    }
    guard overwrite else { throw .outputExists(path: path) }
    let existing = Glibc.open(path, O_WRONLY | O_CLOEXEC)
    guard existing >= 0 else {
      throw .cannotCreate(SystemError("open", path: path, errno: errno))
    }
    return (existing, false)
  }

  /// Opens read-write as gpsd does (a receiver may be sent commands), read-only when only that
  /// is permitted; never as the controlling terminal; non-blocking, for `poll`. Another
  /// program's terminal (`TerminalIdentity.ownership`) is not opened.
  private static func openDevice(_ path: String) throws(SetupError) -> FileDescriptor {
    if let identity = TerminalIdentity.of(path),
      case .refuse(let reason) = TerminalIdentity.ownership(of: identity, openedBefore: nil)
    {
      throw .foreignTerminal(path: path, reason: reason)
    }
    do {
      return try FileDescriptor.open(path, flags: O_RDWR | O_NOCTTY | O_NONBLOCK)
    } catch  where error.errno == EACCES || error.errno == EROFS {
      do {
        return try FileDescriptor.open(path, flags: O_RDONLY | O_NOCTTY | O_NONBLOCK)
      } catch {
        throw .cannotOpenDevice(error)
      }
    } catch {
      throw .cannotOpenDevice(error)
    }
  }

  /// Records until `stop` becomes readable, the device hangs up, or an error.
  ///
  /// When stopped, what the device has already received is still read and recorded. The
  /// calling thread reads at a raised priority when allowed (as the epoch thread writes): on a
  /// busy machine the arrival times are then when the bytes came, not when the recorder was
  /// given a CPU. It never spins: it sleeps in `poll` until the device has bytes.
  public func record(until stop: Poll.Request) -> Summary {
    SystemThread.raisePriorityIfAllowed()
    var summary = Summary()
    let started = SystemClock.monotonicNanoseconds()
    summary.ending = recordLoop(until: stop, &summary)
    summary.durationNanoseconds = SystemClock.monotonicNanoseconds() - started
    return summary
  }

  private func recordLoop(until stop: Poll.Request, _ summary: inout Summary) -> Ending {
    var buffer = [UInt8](repeating: 0, count: Self.readSize)
    let requests = [device.pollRequest(.readable), stop]
    while true {
      let ready: [Poll.Events]
      do {
        ready = try Poll.wait(requests, timeoutMilliseconds: -1)
      } catch {
        return .failed(error)
      }
      if !ready[0].isEmpty {
        if let ending = readAvailable(into: &buffer, &summary) { return ending }
        // A hang-up with nothing left to read (a serial port unplugged).
        if !ready[0].isDisjoint(with: [.hangUp, .error]) { return .hungUp }
      }
      if !ready[1].isEmpty {
        // Stopped: what has arrived is still recorded.
        switch readAvailable(into: &buffer, &summary) {
        case .failed(let error): return .failed(error)
        case .cannotWrite(let error): return .cannotWrite(error)
        case .stopped, .hungUp, nil: return .stopped
        }
      }
    }
  }

  /// Reads and records until the device has nothing more now; returns how recording ends if it
  /// must (a hang-up or an error), or nil to go on.
  private func readAvailable(into buffer: inout [UInt8], _ summary: inout Summary) -> Ending? {
    while true {
      let result: FileDescriptor.TransferResult
      do {
        result = try device.read(into: &buffer)
      } catch  where error.errno == EIO {
        return .hungUp
      } catch {
        return .failed(error)
      }
      // The arrival time is taken right after the read returns, before anything else.
      let arrival = SystemClock.nanosecondsSinceEpoch()
      switch result {
      case .wouldBlock: return nil
      case .transferred(0): return .hungUp
      case .transferred(let count):
        do {
          try Self.writeAll(
            RecordingFormat.record(arrivalNanoseconds: arrival, bytes: buffer.prefix(count)),
            to: output)
        } catch {
          return .cannotWrite(error)
        }
        summary.records += 1
        summary.bytes += count
      }
    }
  }

  /// Writes all of `bytes` to a file: one `write`, unless the kernel takes less.
  private static func writeAll(_ bytes: [UInt8], to file: borrowing FileDescriptor)
    throws(SystemError)
  {
    var start = 0
    while start < bytes.count {
      guard case .transferred(let count) = try file.write(bytes[start...]), count > 0 else {
        throw SystemError("write recording", errno: ENOSPC)
      }
      start += count
    }
  }
}
