import Glibc

/// Standard input, output and error.
public enum StandardDescriptors {
  /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed, as some supervisors
  /// start programs. Call it first thing: otherwise the next descriptor opened (a
  /// pseudo-terminal's master) would become standard output, and the log would go into it.
  ///
  /// The corresponding C functions are `fcntl(2)` with `F_GETFD` and `open(2)`.
  public static func ensureOpen() {
    for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      let opened = open("/dev/null", O_RDWR)
      // open returns the lowest free number, which is this one; anything else is not ours.
      if opened >= 0 && opened != descriptor { close(opened) }
    }
  }
}
