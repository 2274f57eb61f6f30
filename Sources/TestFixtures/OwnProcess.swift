import Glibc

/// What `/proc/self` tells of the test process: where its descriptors lead and what its threads
/// are called. Suites run alongside one another open and close descriptors and threads of their
/// own and reuse freed numbers, so a test asks after its own objects (a pipe's inode, a thread's
/// name), never after the process's counts.
public enum OwnProcess {
  /// What `/proc/self/fd/<descriptor>` links to (`pipe:[inode]`, `anon_inode:[eventpoll]`), or
  /// nil when the descriptor is not open.
  public static func link(of descriptor: Int32) -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    let length = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// How many open descriptors link to `target` (the ends of one pipe, say).
  public static func descriptors(linkingTo target: String) -> Int {
    entries(of: "/proc/self/fd").count { Int32($0).flatMap(link(of:)) == target }
  }

  /// How many open epoll sets of the process watch the file with inode `inode` (the `ino:` of
  /// a `tfd:` line in their `/proc/self/fdinfo`, in hex): a set left open by its owner is found
  /// by what it watches, whatever number it has.
  public static func epollSets(watchingInode inode: UInt64) -> Int {
    let wanted = Array("ino:\(String(inode, radix: 16)) ".utf8)
    return entries(of: "/proc/self/fdinfo").count { name in
      guard Int32(name) != nil else { return false }
      return (fdinfoLines(of: "/proc/self/fdinfo/\(name)") ?? []).contains {
        $0.starts(with: Array("tfd:".utf8)) && $0.firstRange(of: wanted) != nil
      }
    }
  }

  /// The inode of an open descriptor's file.
  public static func inode(of descriptor: Int32) -> UInt64? {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    return UInt64(status.st_ino)
  }

  /// How many descriptors the epoll set `descriptor` watches (the `tfd:` lines of its
  /// `/proc/self/fdinfo`), or nil when it is not open.
  public static func watched(byEpoll descriptor: Int32) -> Int? {
    guard let lines = fdinfoLines(of: "/proc/self/fdinfo/\(descriptor)") else { return nil }
    return lines.count { $0.starts(with: Array("tfd:".utf8)) }
  }

  /// The lines of a descriptor's fdinfo, or nil when it is not open.
  private static func fdinfoLines(of path: String) -> [ArraySlice<UInt8>]? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var text: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while case let count = fread(&buffer, 1, buffer.count, file), count > 0 {
      text += buffer.prefix(count)
    }
    return text.split(separator: 0x0A)
  }

  /// How many threads of the process carry `name` (`/proc/self/task/*/comm`, at most 15 bytes).
  public static func threads(named name: String) -> Int {
    entries(of: "/proc/self/task").count { task in
      guard Int32(task) != nil, let file = fopen("/proc/self/task/\(task)/comm", "r") else {
        return false
      }
      defer { fclose(file) }
      var line = [UInt8](repeating: 0, count: 32)
      let count = fread(&line, 1, line.count, file)
      return String(decoding: line.prefix(count).prefix { $0 != 0x0A }, as: UTF8.self) == name
    }
  }

  /// The names in a directory.
  private static func entries(of path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      names.append(
        withUnsafeBytes(of: entry.pointee.d_name) {
          String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        })
    }
    return names
  }
}
