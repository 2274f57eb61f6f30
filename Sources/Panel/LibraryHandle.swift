/// A daemon or connection of libmicrohttpd, to keep behind a lock: the library's calls made
/// on it from other threads (resume, stop) are those it allows from any thread.
struct LibraryHandle: @unchecked Sendable {
  var pointer: OpaquePointer?

  init(_ pointer: OpaquePointer?) {
    self.pointer = pointer
  }
}
