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
}
