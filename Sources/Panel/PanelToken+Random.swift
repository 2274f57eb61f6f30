import CMicroHTTPD
import Glibc
import SystemIO

extension PanelToken {
  /// A new token of 16 random bytes from the kernel.
  ///
  /// The corresponding C function is `getrandom(2)`.
  public static func random() throws(SystemError) -> PanelToken {
    var bytes = [UInt8](repeating: 0, count: 16)
    var filled = 0
    while filled < bytes.count {
      let count = bytes.withUnsafeMutableBytes {
        mockgps_getrandom($0.baseAddress.map { $0 + filled }, $0.count - filled)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw SystemError("read random bytes for the panel token", path: "getrandom", errno: errno)
      }
      filled += count
    }
    return PanelToken(bytes: bytes)
  }
}
