import Control
@preconcurrency import Glibc
import InputFiles
import SystemIO

/// `mockgps ctl`: a thin client of the control socket. Sends one request line and prints the
/// reply: readable (`ok`, status as aligned `key  value` lines, a refusal on standard error as
/// `mockgps ctl: <error>`), or the raw lines with `--json`.
enum CtlCommand {
  /// sysexits' EX_UNAVAILABLE: nothing listens at the path.
  static let unavailable: Int32 = 69

  /// A connection to the first of the socket and its fallbacks that something listens on, or
  /// nil after saying on standard error why there is none.
  static func connect(_ options: CtlOptions) -> FileDescriptor? {
    let paths = [options.socketPath] + options.fallbackSocketPaths
    for path in paths {
      do {
        let socket = try UnixSocket.connect(to: path)
        guard options.requiresOwnOrRootListener else { return socket }
        // A default socket is trusted only from this user or root: a request may name files.
        let listener = try? PeerCredentials.of(socket: socket)
        guard let listener, listener.userID == geteuid() || listener.userID == 0 else {
          let owner = listener.map { "uid \($0.userID)" }
          RunCommand.writeError(
            "mockgps ctl: '\(path)' is served by \(owner ?? "an unknown user"), neither you nor "
              + "root; not sending to it (name a socket you trust with --control PATH)\n")
          return nil
        }
        return socket
      } catch {
        if case .nothingListening = error { continue }
        RunCommand.writeError("mockgps ctl: \(error)\n")
        return nil
      }
    }
    RunCommand.writeError(
      "mockgps ctl: nothing is listening on "
        + paths.map { "'\($0)'" }.joined(separator: " nor on ") + "\n"
        + "hint: is mockgps running? name its socket with --control PATH, or its link "
        + "with --link LINK\n")
    return nil
  }

  static func execute(_ options: CtlOptions) -> Int32 {
    guard let socket = connect(options) else { return unavailable }
    var reader = ReplyReader()
    do {
      var bytes = Array((options.requestLine + "\n").utf8)[...]
      while !bytes.isEmpty {
        guard case .transferred(let count) = try UnixSocket.send(bytes, on: socket) else { break }
        bytes = bytes.dropFirst(count)
      }
      guard let reply = try reader.nextLine(from: socket) else {
        RunCommand.writeError("mockgps ctl: the emulator closed the connection without a reply\n")
        return ExitCode.failure
      }
      let status = show(reply, options: options)
      guard status == ExitCode.success, options.subscribes else { return status }
      var shown = 0
      while options.subscriptionCount.map({ shown < $0 }) ?? true,
        let line = try reader.nextLine(from: socket)
      {
        print(line)
        fflush(nil)
        shown += 1
      }
      return ExitCode.success
    } catch {
      RunCommand.writeError("mockgps ctl: \(error)\n")
      return ExitCode.failure
    }
  }

  /// Prints one reply and returns the exit status it means.
  private static func show(_ line: String, options: CtlOptions) -> Int32 {
    guard case .success(let reply) = JSONValue.parse(Array(line.utf8)),
      case .bool(let ok) = reply["ok"]
    else {
      RunCommand.writeError("mockgps ctl: unreadable reply: \(line)\n")
      return ExitCode.failure
    }
    if options.printsJSON {
      print(line)
    } else if !ok {
      let message: String
      if case .string(let text) = reply["error"] { message = text } else { message = line }
      RunCommand.writeError("mockgps ctl: \(message)\n")
    } else {
      // In their order, which the decoder's dictionary forgets.
      let keys = (JSONParser.topLevelKeys(Array(line.utf8)) ?? []).filter {
        $0 != "ok" && $0 != "id"
      }
      if keys.isEmpty || options.subscribes {
        print("ok")
      } else {
        let width = keys.map(\.count).max() ?? 0
        for key in keys {
          let value = reply[key].map(text(of:)) ?? ""
          print(key + String(repeating: " ", count: width - key.count + 2) + value)
        }
      }
    }
    return ok ? ExitCode.success : ExitCode.failure
  }

  private static func text(of value: JSONValue) -> String {
    switch value {
    case .null: return "-"
    case .bool(let flag): return flag ? "yes" : "no"
    case .number(let number):
      return NumberSpelling.text(number)
    case .string(let string): return string
    case .array(let values): return values.map(text(of:)).joined(separator: ", ")
    case .object: return "{…}"
    }
  }
}

/// Splits what the socket sends into lines, reading (blocking) as needed.
private struct ReplyReader {
  private var pending: [UInt8] = []

  mutating func nextLine(from socket: borrowing FileDescriptor) throws(SystemError) -> String? {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        return line
      }
      guard case .transferred(let count) = try socket.read(into: &buffer), count > 0 else {
        return nil
      }
      pending += buffer[..<count]
    }
  }
}
