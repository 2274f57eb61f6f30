import Glibc

/// What a file given to `mockgps check` holds: a route, a scenario or a GPS almanac.
public enum ScriptFileKind: Hashable, Sendable {
  case route
  case scenario
  case almanac

  /// The kind of a file from its first bytes: a YUMA block heading first is an almanac; a JSON
  /// object that names a `timeline` or a `start` and no `type` is a scenario (GeoJSON always
  /// has a `type`); anything else is a route, whose reader then says what is wrong with it.
  public static func detect(prefix: some Collection<UInt8>) -> ScriptFileKind {
    if AlmanacFile.looksLikeAlmanac(prefix: prefix) { return .almanac }
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
    guard
      let file = try? InputFileOpening.open(path, expecting: "a route, scenario or almanac file")
    else { return nil }
    defer { close(file.descriptor) }
    let source = ByteSource.file(descriptor: file.descriptor, path: path)
    guard let prefix = try? source.bytes(at: 0, count: min(file.size, prefixLength)) else {
      return nil
    }
    return detect(prefix: prefix)
  }
}
