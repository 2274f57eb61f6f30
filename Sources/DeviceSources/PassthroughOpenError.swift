import SystemIO
import Udev

/// Why the real receiver of `--passthrough` could not be opened at the start.
public enum PassthroughOpenError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Nothing at the path (exit 66).
  case missing(String)
  /// The path is not a terminal (exit 1).
  case notATerminal(String)
  /// `auto…` found no single receiver (exit 66); lists what it found.
  case noReceiver(ReceiverSelectionError)
  /// Opening or setting up the port failed otherwise (exit 1).
  case system(String, SystemError)
  /// The terminal at the path is not the receiver's any more (another program's
  /// pseudo-terminal took its number): it is left alone.
  case foreignTerminal(String, reason: String)

  /// True when the input is missing (sysexits 66), false for a runtime failure (1).
  public var isMissingInput: Bool {
    switch self {
    case .missing, .noReceiver: return true
    case .notATerminal, .system, .foreignTerminal: return false
    }
  }

  public var description: String {
    switch self {
    case .missing(let path): return "--passthrough: '\(path)' does not exist"
    case .notATerminal(let path): return "--passthrough: '\(path)' is not a terminal"
    case .noReceiver(let error): return error.description
    case .system(let path, let error): return "--passthrough: '\(path)': \(error)"
    case .foreignTerminal(let path, let reason):
      return "--passthrough: not opening '\(path)': \(reason)"
    }
  }
}
