import Glibc

/// The process's limit of open descriptors (`RLIMIT_NOFILE`). Linux starts most processes at a
/// soft limit of 1,024 under a far higher hard one (524,288 under systemd); a run of thousands
/// of devices raises its soft limit to the hard one before it opens anything.
public enum OpenFilesLimit {
  /// Raises the soft limit to the hard one, and returns the limit now in force.
  @discardableResult
  public static func raiseToHardLimit() -> Int {
    var limit = rlimit()
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    guard getrlimit(resource, &limit) == 0 else { return Int.max }
    if limit.rlim_cur < limit.rlim_max {
      var raised = limit
      raised.rlim_cur = limit.rlim_max
      if setrlimit(resource, &raised) == 0 { limit = raised }
    }
    return Int(clamping: limit.rlim_cur)
  }
}
