import SystemIO

/// Who sent a control request, which decides the rights the daemon uses for it: a root daemon
/// acts for a client only with that client's rights.
public enum ControlRequester: Sendable {
  /// Code in this process (the Swift API, tests): the process's own rights.
  case process
  /// A client of the control socket: files are opened with the rights of its user, as the
  /// kernel recorded them when it connected.
  case socketPeer(PeerCredentials)
  /// The browser panel, whose users have no account here: files only from beneath the folder
  /// the operator named at start (`--panel-files`), opened then; none when nil.
  case panel(files: OpenFolder?)
}
