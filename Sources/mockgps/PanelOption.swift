import Glibc
import MockGPS
import Panel
import SystemIO

/// `--panel [HOST:]PORT` of `mockgps run`: the browser panel, on loopback unless a host is
/// given; with `--config`, one panel for every device of the process.
enum PanelOption {
  /// The host `--panel PORT` listens on.
  static let defaultHost = "127.0.0.1"

  /// The option, with what its value must be.
  static let valueOptions: [String: String] = [
    "--panel": "[HOST:]PORT, HOST an IPv4 or [IPv6] address or localhost (default 127.0.0.1), "
      + "PORT from 0 (a free one) to 65535"
  ]

  /// The address `value` names; `invalid` makes the error naming the option and value.
  static func address(_ value: String, invalid: (String) -> UsageError) throws(UsageError)
    -> InternetAddress
  {
    do {
      return try InternetAddress(parsing: value, defaultHost: defaultHost)
    } catch {
      throw invalid("\(error.description) (expected \(valueOptions["--panel"] ?? ""))")
    }
  }

  /// Binds the panel's address before any device opens: a port in use fails the run with
  /// nothing left behind.
  static func listen(_ address: InternetAddress?) -> Result<PanelListener?, RunCommand.Failure> {
    guard let address else { return .success(nil) }
    do {
      return .success(try PanelServer.listen(on: address))
    } catch {
      return .failure(
        RunCommand.Failure(
          text: "mockgps: cannot serve panel on \(address): \(error.message)\n",
          code: ExitCode.failure))
    }
  }

  /// The folder `--panel-files` names, resolved to its real path, or nil when it is not an
  /// existing folder.
  static func folder(_ value: String) -> String? {
    guard !value.isEmpty, let resolved = realpath(value, nil) else { return nil }
    defer { free(resolved) }
    var status = stat()
    guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
    return String(cString: resolved)
  }

  /// Serves the panel on `listener` once the devices are up, and prints its URL on standard
  /// error. Its users load route files only from `filesDirectory` (none when nil).
  static func serve(
    _ listener: PanelListener?, _ emulators: [Emulator], filesDirectory: String?
  ) -> Result<PanelServer?, RunCommand.Failure> {
    guard let listener else { return .success(nil) }
    do {
      let server = try PanelServer(
        listener: listener, emulators: emulators, token: try PanelToken.random(),
        filesDirectory: filesDirectory)
      RunCommand.writeError("mockgps: panel at \(server.url)\n")
      return .success(server)
    } catch {
      return .failure(
        RunCommand.Failure(
          text: "mockgps: cannot serve panel on \(listener.address): \(error.message)\n",
          code: ExitCode.failure))
    }
  }
}
