import NMEA

/// Helpers shared by Wire's tests.
enum WireTestSupport {
  /// A sentence with its checksum and CR LF.
  static func sentence(_ body: String) -> String {
    "$\(body)*\(Checksum.hex(Checksum.of(Array(body.utf8))))\r\n"
  }
}
