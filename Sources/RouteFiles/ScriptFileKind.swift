import Glibc

/// What a file given to `mockgps check` holds: a route, or a scenario.
public enum ScriptFileKind: Hashable, Sendable {
  case route
  case scenario

  /// The kind of a file from its first bytes: a JSON object that names a `timeline` or a
  /// `start` and no `type` is a scenario (GeoJSON always has a `type`); anything else is a
  /// route, whose reader then says what is wrong with it.
  public static func detect(prefix: some Collection<UInt8>) -> ScriptFileKind {
    let text = String(decoding: prefix, as: UTF8.self)
    guard text.first(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }) == "{" else {
      return .route
    }
    if text.contains("\"type\"") { return .route }
    return text.contains("\"timeline\"") || text.contains("\"start\"") ? .scenario : .route
  }

  /// How much of a file `detect(path:)` reads.
  public static let prefixLength = 64 * 1024

  /// The kind of the file at `path` from its first bytes; nil when it is no regular file that
  /// can be read (the reader then says why). Never blocks on a FIFO or a terminal.
  public static func detect(path: String) -> ScriptFileKind? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    var buffer = [UInt8](repeating: 0, count: prefixLength)
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    return detect(prefix: buffer.prefix(max(0, count)))
  }
}
