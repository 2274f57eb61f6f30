import CSystemShims
import Glibc

/// Starts detached POSIX threads, for loops that block in system calls (poll, clock_nanosleep)
/// and so must stay off Swift's cooperative pool.
public enum SystemThread {
  private final class Body {
    let name: String
    let run: @Sendable () -> Void
    init(_ name: String, _ run: @escaping @Sendable () -> Void) {
      self.name = name
      self.run = run
    }
  }

  /// Runs `body` on a new detached thread named `name` (at most 15 bytes are kept).
  ///
  /// The corresponding C functions are `pthread_create(3)` and `pthread_setname_np(3)`.
  public static func start(name: String, _ body: @escaping @Sendable () -> Void)
    throws(SystemError)
  {
    let context = Unmanaged.passRetained(Body(name, body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
      &thread, nil,
      { argument in
        guard let argument else { return nil }
        let body = Unmanaged<Body>.fromOpaque(argument).takeRetainedValue()
        _ = mockgps_name_current_thread(body.name)
        body.run()
        return nil
      }, context)
    guard result == 0 else {
      Unmanaged<Body>.fromOpaque(context).release()
      throw SystemError("start thread \(name)", errno: result)
    }
    pthread_detach(thread)
  }
}
