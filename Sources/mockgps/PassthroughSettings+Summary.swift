import MockGPS

extension PassthroughSettings {
  /// The line logged at the start: `passing through /dev/ttyACM0 at 9600 baud, override
  /// replace`; the baud is `auto` when it is found by listening.
  var summary: String {
    "passing through \(target) at \(baud.map(String.init) ?? "auto") baud, override "
      + override.rawValue
  }
}
