import Glibc
import Synchronization
import SystemIO
import TestFixtures
import Testing

/// Files opened with someone else's rights: only the calling thread, only for the body.
@Suite(.blocking, .enabled(if: geteuid() == 0, "taking another user's rights needs root"))
struct FileAccessIdentityTests {
  static let nobody = PeerCredentials(processID: 0, userID: 65534, groupID: 65534, groups: [])

  /// A file only root may read, in a folder anyone may enter.
  private func privateFile() throws -> (folder: String, path: String) {
    var template = Array("/tmp/mockgps-rights-XXXXXX".utf8CString)
    let folder = try #require(mkdtemp(&template).map { String(cString: $0) })
    chmod(folder, 0o755)
    let path = folder + "/secret"
    let file = try #require(fopen(path, "w"))
    fputs("secret\n", file)
    fclose(file)
    chmod(path, 0o600)
    return (folder, path)
  }

  private func canOpen(_ path: String) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    close(descriptor)
    return true
  }

  @Test func theBodyHasThePeersRightsAndTheThreadGetsItsOwnBack() throws {
    let (folder, path) = try privateFile()
    defer {
      unlink(path)
      rmdir(folder)
    }
    let opened = try FileAccessIdentity.with(rightsOf: Self.nobody) { () -> (Bool, Int32) in
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      let error = errno
      if descriptor >= 0 { close(descriptor) }
      return (descriptor >= 0, error)
    }
    #expect(opened.0 == false)
    #expect(opened.1 == EACCES)
    #expect(canOpen(path), "root again after the body")
  }

  /// A thread that exists while the body runs keeps the process's rights. (A thread started
  /// from the body would inherit the body's: the body starts none.)
  @Test func otherThreadsKeepTheProcesssRights() throws {
    let (folder, path) = try privateFile()
    defer {
      unlink(path)
      rmdir(folder)
    }
    let bodyRunning = Atomic<Bool>(false)
    let otherDone = Atomic<Bool>(false)
    let otherOpened = Atomic<Bool>(false)
    let thread = try SystemThread.start(name: "rights-test") {
      while !bodyRunning.load(ordering: .acquiring) { usleep(1_000) }
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      if descriptor >= 0 { close(descriptor) }
      otherOpened.store(descriptor >= 0, ordering: .relaxed)
      otherDone.store(true, ordering: .releasing)
    }
    let bodySawNoAccess = try FileAccessIdentity.with(rightsOf: Self.nobody) { () -> Bool in
      bodyRunning.store(true, ordering: .releasing)
      while !otherDone.load(ordering: .acquiring) { usleep(1_000) }
      return !canOpen(path)
    }
    SystemThread.join(thread)
    #expect(bodySawNoAccess)
    let kept = otherOpened.load(ordering: .relaxed)
    #expect(kept, "another thread kept root's rights")
  }
}
