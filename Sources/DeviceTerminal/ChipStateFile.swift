import DeviceRuntime
import InputFiles
import Receiver
import Synchronization
import SystemIO

/// The state file of one device's chip in the `--state-dir` directory: read at start, so that
/// the chip powers up with what it saved in an earlier run, and replaced each time the chip
/// saves, off the thread that handles its commands (see `ChipStateWriter`).
///
/// The file is named after the device's link: its absolute path without the first `/`, each
/// other `/` written `+` (and a `%` or `+` of the path as `%25`, `%2B`), then `.state`:
/// `/dev/ttyMOCKGPS0` keeps its chip in `dev+ttyMOCKGPS0.state`.
public final class ChipStateFile: Sendable {
  /// The most bytes a state file may have: every item of the ZED-F9P's database in both
  /// layers takes about 60 KiB of text.
  public static let sizeLimit = 256 * 1024

  /// The path, for messages.
  public let path: String
  private let directory: StateDirectory
  private let name: String
  private let log: Log
  /// The text waiting to be written, newest only.
  private let pending = Mutex<String?>(nil)
  /// Held while a text is written, so that `flush()` waits for a write under way.
  private let writing = Mutex<Void>(())

  /// The state file's name for a device link.
  public static func name(forLink link: String) -> String {
    // As the control socket's name: absolute, `//` and `/./` collapsed.
    let parts = WorkingDirectory.normalized(link).split(separator: "/")
    let escaped = parts.map { part in
      part.replacing("%", with: "%25").replacing("+", with: "%2B")
    }
    return escaped.joined(separator: "+") + ".state"
  }

  /// Opens the directory `directoryPath` for the chip of the device at `link`.
  ///
  /// - Throws: `InputFileError.unreadable` when the directory is missing or not safe.
  public init(directory directoryPath: String, link: String, log: Log) throws(InputFileError) {
    do {
      directory = try StateDirectory(path: directoryPath)
    } catch {
      throw .unreadable(path: directoryPath, reason: Self.reason(error))
    }
    name = Self.name(forLink: link)
    path = directory.path(of: name)
    self.log = log
  }

  /// The state saved for `profileName`, or nil when there is no file yet.
  ///
  /// - Throws: `InputFileError.invalid` naming the file and line, for a file that is not a
  ///   state file of this profile, or one that is not a regular file of this user;
  ///   `.unreadable` when it cannot be read.
  public func load(profileName: String) throws(InputFileError) -> ChipState? {
    let bytes: [UInt8]?
    do {
      bytes = try directory.read(name, limit: Self.sizeLimit)
    } catch .foreignFile(_, let reason) {
      throw .invalid([InputDiagnostic(InputLocation(file: path), reason)])
    } catch {
      throw .unreadable(path: path, reason: Self.reason(error))
    }
    guard let bytes else { return nil }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw .invalid([InputDiagnostic(InputLocation(file: path), "not UTF-8 text")])
    }
    do {
      return try ChipState(text: text, profileName: profileName)
    } catch {
      throw invalid(error)
    }
  }

  /// The error of a state the chip refused, at its line of this file.
  public func invalid(_ error: ChipStateError) -> InputFileError {
    .invalid([InputDiagnostic(InputLocation(file: path, line: error.line), error.message)])
  }

  /// Queues `state` to be written; returns at once. Without a writer thread, writes it now.
  public func save(_ state: ChipState) {
    pending.withLock { $0 = state.text }
    if let writer = ChipStateWriter.shared {
      writer.enqueue(self)
    } else {
      writePending()
    }
  }

  /// Writes the text waiting, if any, and returns when it is on disk (or failed, logged).
  public func flush() {
    writePending()
  }

  /// Writes the newest text waiting; a failure is logged, and the next save tries again.
  func writePending() {
    writing.withLock { _ in
      guard let text = pending.withLock({ $0.take() }) else { return }
      do {
        try directory.replace(name, with: Array(text.utf8))
        log.debug("saved the chip's memory to '\(path)'")
      } catch {
        log.error("\(error); the chip's saved settings are not kept")
      }
    }
  }

  private static func reason(_ refusal: StateDirectory.Refusal) -> String {
    switch refusal {
    case .system(let error): return error.message
    case .unsafeDirectory(_, let reason), .foreignFile(_, let reason): return reason
    }
  }
}
