import Glibc

/// Looks up groups in the system's group database.
public enum Groups {
  /// The ID of a group given by name or number, or nil when there is no such group.
  ///
  /// The corresponding C function is `getgrnam_r(3)`.
  public static func groupID(named name: String) -> UInt32? {
    if let number = UInt32(name) { return number }
    var group = group()
    var result: UnsafeMutablePointer<group>?
    var buffer = [CChar](repeating: 0, count: 16_384)
    let status = getgrnam_r(name, &group, &buffer, buffer.count, &result)
    guard status == 0, result != nil else { return nil }
    return group.gr_gid
  }
}
