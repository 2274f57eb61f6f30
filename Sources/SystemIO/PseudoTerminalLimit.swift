import Glibc

/// How many more pseudo-terminals the system lets this process open: Linux caps them at
/// `kernel.pty.max` (4,096 by default), counting those of every program (`kernel.pty.nr`), and
/// a run of thousands of devices needs one each.
public enum PseudoTerminalLimit {
  /// The system's cap (`/proc/sys/kernel/pty/max`) and how many are open now
  /// (`/proc/sys/kernel/pty/nr`); nil when either cannot be read.
  public static func current() -> (maximum: Int, inUse: Int)? {
    guard let maximum = number(in: "/proc/sys/kernel/pty/max"),
      let inUse = number(in: "/proc/sys/kernel/pty/nr")
    else { return nil }
    return (maximum, inUse)
  }

  /// The decimal number a file of `/proc/sys` holds.
  private static func number(in path: String) -> Int? {
    let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    return Int(String(decoding: buffer.prefix(count), as: UTF8.self).filter(\.isNumber))
  }
}
