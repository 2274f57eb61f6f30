import Glibc
import SystemIO

/// Where and how an emulator's control socket listens (`--control`, `--control-group`).
///
/// The socket is private to its owner (0600) unless a group is given (0660 and that group).
public struct ControlSettings: Hashable, Sendable {
  /// The socket's path.
  public var path: String
  /// The group given the socket, by name or number; nil keeps it private to its owner.
  public var groupName: String?
  /// True when the path was asked for (`--control PATH`): failing to listen there is fatal.
  /// The default path failing is a warning and the emulator runs without a socket.
  public var isExplicit: Bool
  /// How long a client held back for not reading its replies may go without reading any
  /// before it is disconnected (see `ControlServer`).
  public var stallLimitNanoseconds: Int64
  /// How long a client may take from the first byte of a request line to its newline before
  /// it is disconnected (a slowloris holds no slot for longer).
  public var requestDeadlineNanoseconds: Int64

  /// A minute: a client that pauses (a debugger, a busy test, a laptop lid) keeps its
  /// connection; one that will never read again frees its slot.
  public static let defaultStallLimitNanoseconds: Int64 = 60_000_000_000
  /// Ten seconds: a request line is sent at once by any client (`mockgps ctl`, socat, a script).
  public static let defaultRequestDeadlineNanoseconds: Int64 = 10_000_000_000

  /// Creates settings.
  public init(
    path: String, groupName: String? = nil, isExplicit: Bool = true,
    stallLimitNanoseconds: Int64 = Self.defaultStallLimitNanoseconds,
    requestDeadlineNanoseconds: Int64 = Self.defaultRequestDeadlineNanoseconds
  ) {
    self.path = path
    self.groupName = groupName
    self.isExplicit = isExplicit
    self.stallLimitNanoseconds = stallLimitNanoseconds
    self.requestDeadlineNanoseconds = requestDeadlineNanoseconds
  }

  /// The socket's permission bits: 0600, or 0660 with a group.
  public var mode: UInt32 { groupName == nil ? 0o600 : 0o660 }

  /// The default settings of a link: its socket in the runtime directory (see `defaultPath`).
  public static func defaults(
    forLink linkPath: String, groupName: String? = nil,
    runtimeDirectory: String? = currentRuntimeDirectory()
  ) -> ControlSettings {
    ControlSettings(
      path: defaultPath(forLink: linkPath, runtimeDirectory: runtimeDirectory),
      groupName: groupName,
      isExplicit: false)
  }

  /// The default socket of a link: `$XDG_RUNTIME_DIR/mockgps/NAME.sock`, for root
  /// `/run/mockgps/NAME.sock`, else `/tmp/mockgps-UID/NAME.sock`, where NAME is the link's
  /// path, made absolute against the current directory (`tty1` and `./tty1` are one link, the
  /// `tty1` of two folders two), escaped as `systemd-escape --path` does (`/dev/ttyMOCKGPS` →
  /// `dev-ttyMOCKGPS`), so that two links never share a socket.
  public static func defaultPath(
    forLink linkPath: String, runtimeDirectory: String? = currentRuntimeDirectory(),
    userID: UInt32 = geteuid()
  ) -> String {
    defaultDirectory(runtimeDirectory: runtimeDirectory, userID: userID) + "/"
      + escapedName(ofPath: WorkingDirectory.normalized(linkPath)) + ".sock"
  }

  /// The folder of the default sockets (see `defaultPath`).
  public static func defaultDirectory(
    runtimeDirectory: String? = currentRuntimeDirectory(), userID: UInt32 = geteuid()
  ) -> String {
    if let runtime = runtimeDirectory, runtime.hasPrefix("/") {
      return runtime + "/mockgps"
    }
    return userID == 0 ? "/run/mockgps" : "/tmp/mockgps-\(userID)"
  }

  /// A path escaped as `systemd-escape --path` does: slashes at the ends dropped, repeated
  /// ones merged, the others become `-`, and every byte but ASCII letters, digits, `:`, `_`
  /// and a `.` that does not start the name becomes `\xNN`.
  public static func escapedName(ofPath path: String) -> String {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    guard !parts.isEmpty else { return "-" }
    var escaped = ""
    for (index, part) in parts.enumerated() {
      if index > 0 { escaped += "-" }
      for (offset, byte) in part.utf8.enumerated() {
        let isPlain =
          (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
          || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
          || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
          || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_")
          || (byte == UInt8(ascii: ".") && !(index == 0 && offset == 0))
        if isPlain {
          escaped.unicodeScalars.append(Unicode.Scalar(byte))
        } else {
          let hex = String(byte, radix: 16)
          escaped += "\\x" + (hex.count == 1 ? "0" + hex : hex)
        }
      }
    }
    return escaped
  }

  /// `$XDG_RUNTIME_DIR` of this process, or nil.
  public static func currentRuntimeDirectory() -> String? {
    getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
  }
}
