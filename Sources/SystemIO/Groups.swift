import Glibc

/// Looks up groups in the system's group database.
public enum Groups {
  /// The ID of a group given by name or number, or nil when there is no such group.
  ///
  /// The corresponding C function is `getgrnam_r(3)`.
  public static func groupID(named name: String) -> UInt32? {
    if !name.isEmpty, name.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
      // (gid_t)-1 means "leave the group as it is" to chown, so it is no group.
      guard let number = UInt32(name), number != UInt32.max else { return nil }
      return number
    }
    var group = group()
    var result: UnsafeMutablePointer<group>?
    var buffer = [CChar](repeating: 0, count: 16_384)
    let status = getgrnam_r(name, &group, &buffer, buffer.count, &result)
    guard status == 0, result != nil else { return nil }
    return group.gr_gid
  }
}
