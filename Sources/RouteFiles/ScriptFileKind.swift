import Glibc
import InputFiles

/// What kind of input file a path holds, as `check` and `run` both decide it.
public enum ScriptFileKind: Hashable, Sendable {
  case route
  case scenario
  case almanac
  /// A config of devices (`run --config`).
  case config

  /// The top-level keys that tell a JSON object's kind, and the kind each tells: GeoJSON always
  /// has a `type` (a scenario or a config never has one at the top), a scenario a `start` or a
  /// `timeline`, a config its `devices`.
  static let decisiveKeys: [String: ScriptFileKind] = [
    "type": .route, "start": .scenario, "timeline": .scenario, "devices": .config,
  ]

  /// The kind of a file from its bytes: a YUMA block heading first is an almanac; a JSON object
  /// is told by the first of its own keys that decides (`decisiveKeys`), wherever it stands and
  /// whatever the values nested in the object hold (read by `JSONParser`, as far as the text is
  /// JSON). Anything else is a route, whose reader then says what is wrong.
  public static func detect(prefix: some Collection<UInt8>) -> ScriptFileKind {
    if AlmanacFile.looksLikeAlmanac(prefix: prefix) { return .almanac }
    return decided(byKeysOf: Array(prefix)) ?? .route
  }

  /// The kind the first decisive key of a JSON object says, or nil without one.
  private static func decided(byKeysOf bytes: [UInt8]) -> ScriptFileKind? {
    let keys = JSONParser.topLevelKeys(bytes, stoppingAt: Set(decisiveKeys.keys))
    return keys?.lazy.compactMap { decisiveKeys[$0] }.first
  }

  /// How much of a file is read first, to tell an almanac or a JSON object from the rest.
  public static let prefixLength = 64 * 1024

  /// The kind of the file at `path`; nil when it is no regular file that can be read (the
  /// reader then says why). Never blocks on a FIFO or a terminal. A JSON object is read up to
  /// the size of the largest scenario or config (`ScenarioFile.maximumBytes`): a file larger
  /// than that can be neither, unless a key before that says so (its reader then refuses it).
  public static func detect(path: String) -> ScriptFileKind? {
    guard let file = try? InputFile(path: path, expecting: "a route, scenario or almanac file")
    else { return nil }
    guard let head = try? file.bytes(at: 0, count: min(file.size, prefixLength)) else {
      return nil
    }
    guard file.size > head.count, JSONParser.startsAsObject(head) else {
      return detect(prefix: head)
    }
    // Most files name their kind first (GeoJSON's "type"): no need to read on.
    if let kind = decided(byKeysOf: head) { return kind }
    let count = min(file.size, ScenarioFile.maximumBytes + 1)
    guard let bytes = try? file.bytes(at: 0, count: count) else { return nil }
    return detect(prefix: bytes)
  }
}
