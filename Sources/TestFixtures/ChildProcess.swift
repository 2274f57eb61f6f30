import CSystemShims
import Foundation
import Glibc

/// Programs a test starts: oracles, tools, peers.
///
/// Not Foundation's `Process`: on Linux its `run()` lists `/proc/self/fd` by copying whole
/// `dirent` records past the end of glibc's buffer (swift-corelibs-foundation#5472, in the 6.3.1
/// toolchain here), which crashes the test runner now and then; a full run here died of a
/// SIGSEGV while an oracle was being started. These use `posix_spawn` directly.
public enum ChildProcess {
  /// What a program run to its end gave.
  public struct Result: Sendable {
    /// Its exit status, or 128 plus the signal that ended it.
    public var status: Int32
    /// What it wrote to its standard output.
    public var output: Data
    /// What it wrote to its standard error.
    public var errors: Data
    /// The standard output as UTF-8 text.
    public var outputText: String { String(decoding: output, as: UTF8.self) }
    /// The standard error as UTF-8 text.
    public var errorText: String { String(decoding: errors, as: UTF8.self) }
  }

  /// A program that could not be started.
  public struct StartFailure: Error, CustomStringConvertible {
    public var description: String
  }

  /// What a started program has as its descriptors 0, 1 and 2.
  public enum StandardStreams {
    /// These descriptors of the test's (standard input on /dev/null when nil).
    case descriptors(input: Int32?, output: Int32, errors: Int32)
    /// None: closed, as some supervisors start programs.
    case closed
  }

  /// Starts `executable` (an absolute path) with `arguments` and `streams`. The program
  /// inherits no other descriptor, an empty signal mask and the default action for the signals
  /// tests send, so that SIGTERM, SIGINT and SIGALRM work on it whatever the test runner's
  /// thread blocks (Foundation spawned from a worker thread that blocks most signals).
  public static func spawn(_ executable: String, _ arguments: [String], streams: StandardStreams)
    throws -> pid_t
  {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    switch streams {
    case .descriptors(let input, let output, let errors):
      if let input {
        posix_spawn_file_actions_adddup2(&actions, input, 0)
      } else {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      }
      posix_spawn_file_actions_adddup2(&actions, output, 1)
      posix_spawn_file_actions_adddup2(&actions, errors, 2)
    case .closed:
      for fd: Int32 in 0...2 { posix_spawn_file_actions_addclose(&actions, fd) }
    }
    let closing = mockgps_spawn_actions_close_from(&actions, 3)
    guard closing == 0 else {
      throw StartFailure(description: "closefrom: \(String(cString: strerror(closing)))")
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGALRM, SIGPIPE, SIGCHLD] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var child: pid_t = 0
    let result = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
    guard result == 0 else {
      throw StartFailure(
        description: "cannot start \(executable): \(String(cString: strerror(result)))")
    }
    return child
  }

  /// Runs `executable` to its end with `input` on its standard input, and returns its status
  /// and what it wrote. Its output is read as it comes, so a program that writes much before it
  /// reads all its input does not block.
  public static func run(_ executable: String, _ arguments: [String], input: Data? = nil) throws
    -> Result
  {
    var inputPipe: [Int32] = [-1, -1]
    var outputPipe: [Int32] = [-1, -1]
    var errorPipe: [Int32] = [-1, -1]
    guard pipe(&inputPipe) == 0, pipe(&outputPipe) == 0, pipe(&errorPipe) == 0 else {
      for fd in inputPipe + outputPipe + errorPipe where fd >= 0 { close(fd) }
      throw StartFailure(description: "pipe: \(String(cString: strerror(errno)))")
    }
    let child: pid_t
    do {
      child = try spawn(
        executable, arguments,
        streams: .descriptors(input: inputPipe[0], output: outputPipe[1], errors: errorPipe[1]))
    } catch {
      for fd in inputPipe + outputPipe + errorPipe { close(fd) }
      throw error
    }
    close(inputPipe[0])
    close(outputPipe[1])
    close(errorPipe[1])
    var pending = [UInt8](input ?? Data())[...]
    var writer: Int32? = inputPipe[1]
    if pending.isEmpty, let fd = writer {
      close(fd)
      writer = nil
    }
    for fd in [inputPipe[1], outputPipe[0], errorPipe[0]] {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    var readers: [Int32: Data] = [outputPipe[0]: Data(), errorPipe[0]: Data()]
    var open = Set(readers.keys)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !open.isEmpty || writer != nil {
      var polled = open.sorted().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      if let writer { polled.append(pollfd(fd: writer, events: Int16(POLLOUT), revents: 0)) }
      guard poll(&polled, nfds_t(polled.count), -1) >= 0 || errno == EINTR else { break }
      for entry in polled where entry.revents != 0 {
        if entry.fd == writer {
          let sent = pending.withUnsafeBytes { write(entry.fd, $0.baseAddress, $0.count) }
          if sent > 0 { pending = pending.dropFirst(sent) }
          if pending.isEmpty || (sent < 0 && errno != EAGAIN && errno != EINTR) {
            close(entry.fd)
            writer = nil
          }
          continue
        }
        let count = read(entry.fd, &buffer, buffer.count)
        if count > 0 {
          readers[entry.fd]?.append(contentsOf: buffer[..<count])
        } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
          close(entry.fd)
          open.remove(entry.fd)
        }
      }
    }
    if let writer { close(writer) }
    for fd in open { close(fd) }
    var raw: Int32 = 0
    while waitpid(child, &raw, 0) < 0 && errno == EINTR {}
    let signal = raw & 0x7F
    let status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
    return Result(
      status: status, output: readers[outputPipe[0]] ?? Data(),
      errors: readers[errorPipe[0]] ?? Data())
  }
}
