import Glibc

/// Opening a route or scenario file: only a regular file is read.
enum InputFileOpening {
  /// An open regular file and its size.
  struct Opened {
    let descriptor: Int32
    let size: Int
  }

  /// Opens `path` for reading, without blocking: a FIFO with no writer, a terminal or a socket
  /// is refused at once instead of hanging, as is a directory. `kind` names what was expected
  /// (`a route file`). The caller closes the descriptor.
  ///
  /// - Throws: `.unreadable` with the system's reason or what the path is instead (exit 66).
  static func open(_ path: String, expecting kind: String) throws(InputFileError) -> Opened {
    let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard descriptor >= 0 else { throw systemError(path) }
    return try check(descriptor, path: path, expecting: kind)
  }

  /// `descriptor`, opened for `path`, as an opened regular file with its size; anything else
  /// is closed and refused as `open` refuses it.
  static func check(_ descriptor: Int32, path: String, expecting kind: String)
    throws(InputFileError) -> Opened
  {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let error = systemError(path)
      close(descriptor)
      throw error
    }
    let type = status.st_mode & S_IFMT
    guard type == S_IFREG else {
      close(descriptor)
      let what = type == S_IFDIR ? "a directory" : "not a regular file"
      throw .unreadable(path: path, reason: "is \(what); expected \(kind)")
    }
    return Opened(descriptor: descriptor, size: Int(status.st_size))
  }

  /// The reason the last system call failed, for `path`.
  static func systemError(_ path: String) -> InputFileError {
    .unreadable(path: path, reason: String(cString: strerror(errno)))
  }
}
