import CSystemShims
import Glibc

/// Who is at the other end of a Unix socket: the process, user and groups the kernel recorded
/// when it connected (`SO_PEERCRED`, `SO_PEERGROUPS`), which the peer cannot forge.
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
  public var processID: Int32
  public var userID: UInt32
  public var groupID: UInt32
  /// Supplementary groups.
  public var groups: [UInt32]

  /// Creates credentials.
  public init(processID: Int32, userID: UInt32, groupID: UInt32, groups: [UInt32]) {
    self.processID = processID
    self.userID = userID
    self.groupID = groupID
    self.groups = groups
  }

  /// The credentials of a connected Unix socket's peer.
  ///
  /// The corresponding C function is `getsockopt(2)` with `SO_PEERCRED` and `SO_PEERGROUPS`
  /// (see `unix(7)`).
  public static func of(socket: borrowing FileDescriptor) throws(SystemError) -> PeerCredentials {
    let raw = socket.rawValue
    var processID: Int32 = 0
    var userID: UInt32 = 0
    var groupID: UInt32 = 0
    try systemCall("read the peer's credentials of") {
      mockgps_peer_credentials(raw, &processID, &userID, &groupID)
    }
    var groups = [UInt32](repeating: 0, count: 64)
    while true {
      let count = groups.withUnsafeMutableBufferPointer { buffer in
        mockgps_peer_groups(raw, buffer.baseAddress, Int32(buffer.count))
      }
      if count >= 0 {
        groups.removeSubrange(Int(count)...)
        break
      }
      guard errno == ERANGE, groups.count < 65_536 else {
        throw SystemError("read the peer's groups of", errno: errno)
      }
      groups = [UInt32](repeating: 0, count: groups.count * 4)
    }
    return PeerCredentials(
      processID: processID, userID: userID, groupID: groupID, groups: groups)
  }

  public var description: String { "uid \(userID) gid \(groupID) (pid \(processID))" }
}
