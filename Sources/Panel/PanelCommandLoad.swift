import CMicroHTTPD
import Synchronization

/// A panel command answered on a thread of its own (a `route`, whose file may take seconds to
/// read): its connection is suspended meanwhile, so libmicrohttpd's thread serves every other
/// request, and resumed once the answer is stored; the library then calls the access handler
/// again, which queues it.
///
/// The connection is resumed exactly once, by whichever comes first of the answer and the
/// panel's `stop` (which must resume it before it stops the library), and never after.
final class PanelCommandLoad: Sendable {
  private struct State {
    var connection = LibraryHandle(nil)
    var response: PanelResponse?
    var isSuspended = false
    /// Resumed, or answered before it was suspended: no call on the connection any more.
    var isDone = false
  }

  private let state = Mutex(State())

  /// The answer stored by `finish` or `abandon`, once there is one.
  var response: PanelResponse? { state.withLock { $0.response } }

  /// On libmicrohttpd's thread, in the access handler that started the load: suspends the
  /// connection, unless the answer is there already, which is returned to queue at once.
  func suspendUnlessAnswered(_ connection: OpaquePointer) -> PanelResponse? {
    state.withLock { state in
      if let response = state.response {
        state.isDone = true
        return response
      }
      state.connection = LibraryHandle(connection)
      state.isSuspended = true
      MHD_suspend_connection(connection)
      return nil
    }
  }

  /// On the load's thread: stores the answer and resumes the connection (unless `abandon`
  /// came first).
  func finish(_ response: PanelResponse) {
    state.withLock { state in
      guard state.response == nil else { return }
      state.response = response
      Self.resumeIfSuspended(&state)
    }
  }

  /// From `PanelServer.stop`, before the library stops: answers 503 unless the answer is
  /// there, and resumes the connection so that the library can close it.
  func abandon() {
    state.withLock { state in
      if state.response == nil {
        state.response = .text(503, "the panel is stopping")
      }
      Self.resumeIfSuspended(&state)
    }
  }

  private static func resumeIfSuspended(_ state: inout State) {
    guard state.isSuspended, !state.isDone else { return }
    state.isDone = true
    MHD_resume_connection(state.connection.pointer)
  }
}
