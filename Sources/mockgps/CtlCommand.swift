@preconcurrency import Glibc
import RouteFiles
import SystemIO

/// `mockgps ctl`: a thin client of the control socket. Sends one request line and prints the
/// reply: readable (`ok`, status as aligned `key  value` lines, a refusal on standard error as
/// `mockgps ctl: <error>`), or the raw lines with `--json`.
enum CtlCommand {
  /// sysexits' EX_UNAVAILABLE: nothing listens at the path.
  static let unavailable: Int32 = 69

  static func execute(_ options: CtlOptions) -> Int32 {
    let socket: FileDescriptor
    do {
      socket = try UnixSocket.connect(to: options.socketPath)
    } catch {
      if case .nothingListening = error {
        RunCommand.writeError(
          "mockgps ctl: nothing is listening on '\(options.socketPath)'\n"
            + "hint: is mockgps running? name its socket with --control PATH, or its link "
            + "with --link LINK\n")
        return unavailable
      }
      RunCommand.writeError("mockgps ctl: \(error)\n")
      return unavailable
    }
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
      guard status == ExitCode.success, options.command == "subscribe" else { return status }
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
      let keys = topLevelKeys(of: line).filter { $0 != "ok" && $0 != "id" }
      if keys.isEmpty || options.command == "subscribe" {
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
      return number == number.rounded() && abs(number) < 1e15
        ? String(Int64(number)) : String(number)
    case .string(let string): return string
    case .array(let values): return values.map(text(of:)).joined(separator: ", ")
    case .object: return "{…}"
    }
  }

  /// The keys of a JSON object line in their order (the decoder's dictionary forgets it).
  static func topLevelKeys(of line: String) -> [String] {
    var keys: [String] = []
    var depth = 0
    var inString = false
    var escaped = false
    var current: [UInt8] = []
    var lastString: String?
    for byte in line.utf8 {
      if inString {
        if escaped {
          escaped = false
          current.append(byte)
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
          current.append(byte)
        } else if byte == UInt8(ascii: "\"") {
          inString = false
          lastString = String(decoding: current, as: UTF8.self)
        } else {
          current.append(byte)
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
        current = []
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
      case UInt8(ascii: ":"):
        if depth == 1, let key = lastString { keys.append(key) }
      default: break
      }
      if byte != UInt8(ascii: "\"") && byte != UInt8(ascii: " ") { lastString = nil }
    }
    return keys
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
