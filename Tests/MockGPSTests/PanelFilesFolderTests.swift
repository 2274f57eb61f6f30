import DeviceRuntime
import Foundation
import Glibc
import Synchronization
import Testing

@testable import MockGPS
@testable import SystemIO

/// The panel opens route files only beneath `--panel-files`: the folder is opened, and the
/// rest of the path is resolved beneath it by the kernel (`openat2` with `RESOLVE_BENEATH`), so
/// that no `..`, no link out and no link swapped in between a check and the open leads out.
/// Every refusal has the words of a missing file.
@Suite(.timeLimit(.minutes(2))) struct PanelFilesFolderTests {
  static let insideRoute = "lat,lon\n46.05,14.5\n46.06,14.51\n"
  static let outsideRoute = "lat,lon\n10.0,10.0\n10.01,10.01\n"

  /// A scratch folder holding `files/` (the panel's folder, with `route.csv`) and `outside/`
  /// (with `secret.csv`), removed by `remove()`.
  struct Folders {
    let root: String
    var files: String { root + "/files" }
    var outside: String { root + "/outside" }

    init() throws {
      var template = Array("/tmp/mockgps-panel-files-XXXXXX".utf8CString)
      root = try #require(mkdtemp(&template).map { String(cString: $0) })
      mkdir(files, 0o755)
      mkdir(outside, 0o755)
      try write(PanelFilesFolderTests.insideRoute, to: files + "/route.csv")
      try write(PanelFilesFolderTests.outsideRoute, to: outside + "/secret.csv")
    }

    func write(_ text: String, to path: String) throws {
      #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
  }

  private func load(_ path: String, from folder: String) -> Result<Double, RouteLoading.Refusal> {
    load(path, from: try? OpenFolder(path: folder))
  }

  private func load(_ path: String, from folder: OpenFolder?) -> Result<
    Double, RouteLoading.Refusal
  > {
    RouteLoading.load(
      path: path, for: .panel(files: folder), log: Log(level: .error, sink: { _ in })
    ).map { $0.points[0].position.latitude }
  }

  private func refusal(_ path: String) -> String {
    "cannot read '\(path)': no such file, or not readable by the requester"
  }

  @Test func aFileUnderTheFolderLoads() throws {
    let folders = try Folders()
    defer { folders.remove() }
    #expect(try load(folders.files + "/route.csv", from: folders.files).get() == 46.05)
    // The folder given with a trailing slash, and a path with a doubled one.
    #expect(try load(folders.files + "//route.csv", from: folders.files + "/").get() == 46.05)
    mkdir(folders.files + "/sub", 0o755)
    try folders.write(Self.insideRoute, to: folders.files + "/sub/inner.csv")
    #expect(try load(folders.files + "/sub/../sub/inner.csv", from: folders.files).get() == 46.05)
  }

  /// The folder as given and its real path are both accepted in front of the path.
  @Test func theFolderThroughALinkAndItsRealPathBothServe() throws {
    let folders = try Folders()
    defer { folders.remove() }
    let linked = folders.root + "/linked"
    symlink(folders.files, linked)
    #expect(try load(linked + "/route.csv", from: linked).get() == 46.05)
    #expect(try load(folders.files + "/route.csv", from: linked).get() == 46.05)
  }

  @Test func pathsLeadingOutAreRefusedAsAMissingFileIs() throws {
    let folders = try Folders()
    defer { folders.remove() }
    symlink(folders.outside + "/secret.csv", folders.files + "/absolute.csv")
    symlink("../outside/secret.csv", folders.files + "/climbing.csv")
    symlink("../outside", folders.files + "/climbing-folder")
    symlink("/proc/self/root" + folders.outside + "/secret.csv", folders.files + "/magic.csv")
    let escapes = [
      folders.outside + "/secret.csv",
      folders.files + "/../outside/secret.csv",
      folders.files + "/absolute.csv",
      folders.files + "/climbing.csv",
      folders.files + "/climbing-folder/secret.csv",
      folders.files + "/magic.csv",
      folders.files + "/missing.csv",
      folders.files,
      folders.files + "-sibling/route.csv",
      "/proc/self/root" + folders.files + "/route.csv",
    ]
    for path in escapes {
      switch load(path, from: folders.files) {
      case .success: Issue.record("\(path) was loaded")
      case .failure(let refused): #expect(refused.description == refusal(path), "\(path)")
      }
    }
  }

  /// A relative link that stays inside the folder is followed; a link with an absolute target
  /// is refused even when that target is inside (`RESOLVE_BENEATH` takes every absolute path
  /// for a way out).
  @Test func aRelativeLinkInsideIsFollowedAnAbsoluteOneIsNot() throws {
    let folders = try Folders()
    defer { folders.remove() }
    symlink("route.csv", folders.files + "/relative.csv")
    symlink(folders.files + "/route.csv", folders.files + "/absolute-inside.csv")
    #expect(try load(folders.files + "/relative.csv", from: folders.files).get() == 46.05)
    let absolute = folders.files + "/absolute-inside.csv"
    #expect(throws: RouteLoading.Refusal.self) { try load(absolute, from: folders.files).get() }
  }

  /// A folder on the path swapped for a link out while the path is checked and opened: before,
  /// the path was resolved and checked, then opened by name, and a swap between the two read
  /// the file outside. Beneath the open folder no swap leads out.
  @Test func aFolderSwappedForALinkOutNeverLeadsOut() throws {
    let folders = try Folders()
    defer { folders.remove() }
    let real = folders.files + "/real"
    mkdir(real, 0o755)
    try folders.write(Self.insideRoute, to: real + "/route.csv")
    try folders.write(Self.outsideRoute, to: folders.outside + "/route.csv")
    let stopped = StopFlag()
    let swapper = Thread {
      let aside = folders.files + "/real.aside"
      let link = folders.files + "/real.link"
      symlink(folders.outside, link)
      while !stopped.value.load(ordering: .relaxed) {
        rename(real, aside)
        rename(link, real)
        rename(real, link)
        rename(aside, real)
      }
    }
    swapper.start()
    defer { stopped.value.store(true, ordering: .relaxed) }
    var loaded = 0
    var outside = 0
    let deadline = Date().addingTimeInterval(2)
    while Date() < deadline {
      switch load(real + "/route.csv", from: folders.files) {
      case .success(let latitude):
        loaded += 1
        if latitude != 46.05 { outside += 1 }
      case .failure: break
      }
    }
    stopped.value.store(true, ordering: .relaxed)
    while !swapper.isFinished { usleep(1_000) }
    #expect(outside == 0, "\(outside) of \(loaded) loads read the file outside the folder")
    #expect(loaded > 0)
  }

  /// The folder is opened once, at start: its name swapped for a link out afterwards (by
  /// whoever may write the folder above it) leads nowhere. Found in review: the folder was
  /// opened by name at each load, and `/etc/shadow` was read through such a link.
  @Test func theFolderSwappedForALinkOutAfterStartLeadsNowhere() throws {
    let folders = try Folders()
    defer { folders.remove() }
    let folder = try OpenFolder(path: folders.files)
    #expect(try load(folders.files + "/route.csv", from: folder).get() == 46.05)
    #expect(rename(folders.files, folders.root + "/files.real") == 0)
    #expect(symlink(folders.outside, folders.files) == 0)
    let secret = folders.files + "/secret.csv"
    #expect(try load(secret, from: try OpenFolder(path: folders.files)).get() == 10.0)
    guard case .failure(let refusal) = load(secret, from: folder) else {
      Issue.record("the file outside the folder opened at start was read")
      return
    }
    #expect(refusal.description == self.refusal(secret))
    // What is beneath the folder opened at start still loads by its path's text.
    #expect(try load(folders.files + "/route.csv", from: folder).get() == 46.05)
  }

  @Test func theRelativePathIsThePathWithoutTheFolderAsText() {
    #expect(OpenFolder.relativePath(of: "/a/b/c.csv", under: "/a/b") == "c.csv")
    #expect(OpenFolder.relativePath(of: "/a/b/c.csv", under: "/a/b/") == "c.csv")
    #expect(OpenFolder.relativePath(of: "/a/b//c/../d", under: "/a/b") == "c/../d")
    #expect(OpenFolder.relativePath(of: "/c.csv", under: "/") == "c.csv")
    #expect(OpenFolder.relativePath(of: "/a/bc/d.csv", under: "/a/b") == nil)
    #expect(OpenFolder.relativePath(of: "/a/b", under: "/a/b") == nil)
    #expect(OpenFolder.relativePath(of: "/a/b/", under: "/a/b") == nil)
  }
}

/// Tells a thread to stop.
private final class StopFlag: Sendable {
  let value = Atomic<Bool>(false)
}
