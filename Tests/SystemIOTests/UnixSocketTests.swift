import Foundation
import Glibc
import SystemIO
import TestFixtures
import Testing

@Suite(.blocking, .serialized) final class UnixSocketTests {
  let directory: String

  init() throws {
    directory = "/tmp/mockgps-sock-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
  }

  deinit { try? FileManager.default.removeItem(atPath: directory) }

  private func mode(of path: String) -> (mode: mode_t, type: mode_t, group: gid_t) {
    var info = stat()
    #expect(lstat(path, &info) == 0, "stat \(path)")
    return (info.st_mode & 0o777, info.st_mode & S_IFMT, info.st_gid)
  }

  private struct NothingAccepted: Error {}

  private func acceptWithin(_ listener: borrowing UnixSocketListener) throws -> FileDescriptor {
    for _ in 0..<1_000 {
      if let accepted = try listener.accept() { return accepted }
      usleep(1_000)
    }
    throw NothingAccepted()
  }

  @Test func isCreated0600WhateverTheUmaskAndRemovedOnClose() throws {
    let path = directory + "/a.sock"
    let previous = umask(0)
    defer { umask(previous) }
    let listener = try UnixSocketListener(path: path)
    let seen = mode(of: path)
    #expect(seen.type == S_IFSOCK)
    #expect(seen.mode == 0o600)
    // No staging folder is left behind.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["a.sock"])
    listener.close()
    #expect(access(path, F_OK) != 0)
  }

  @Test func opensToAGroupWith0660() throws {
    let path = directory + "/g.sock"
    let group = getegid() == 0 ? UInt32(Groups.groupID(named: "daemon") ?? 1) : getegid()
    let listener = try UnixSocketListener(path: path, mode: 0o660, groupID: group)
    let seen = mode(of: path)
    #expect(seen.mode == 0o660)
    #expect(seen.group == group)
    listener.close()
  }

  @Test func acceptsAConnectionAndCarriesBytesBothWays() throws {
    let path = directory + "/c.sock"
    let listener = try UnixSocketListener(path: path)
    let nothingYet: Bool
    if try listener.accept() == nil { nothingYet = true } else { nothingYet = false }
    #expect(nothingYet)
    let client = try UnixSocket.connect(to: path)
    let server = try acceptWithin(listener)
    #expect(try UnixSocket.send(Array("ping\n".utf8)[...], on: client) == .transferred(5))
    var buffer = [UInt8](repeating: 0, count: 16)
    var result = FileDescriptor.TransferResult.wouldBlock
    for _ in 0..<100 where result == .wouldBlock {
      result = try server.read(into: &buffer)
      if result == .wouldBlock { usleep(1_000) }
    }
    #expect(result == .transferred(5))
    #expect(String(decoding: buffer.prefix(5), as: UTF8.self) == "ping\n")
    server.close()
    client.close()
    listener.close()
  }

  @Test func replacesAStaleSocket() throws {
    let path = directory + "/stale.sock"
    // A socket bound by a process that ended without unlinking it: what a crashed run leaves.
    let python = try ChildProcess.run(
      "/usr/bin/python3",
      ["-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", path])
    #expect(python.status == 0)
    #expect(UnixSocket.inspect(path) == .staleSocket)
    let listener = try UnixSocketListener(path: path)
    #expect(UnixSocket.inspect(path) == .liveSocket)
    listener.close()
  }

  @Test func refusesALiveSocketAndLeavesItListening() throws {
    let path = directory + "/live.sock"
    let first = try UnixSocketListener(path: path)
    #expect(throws: UnixSocket.SocketError.live(path: path)) {
      _ = try UnixSocketListener(path: path)
    }
    let client = try UnixSocket.connect(to: path)
    client.close()
    first.close()
  }

  @Test func neverRemovesWhatIsNotASocket() throws {
    let path = directory + "/file"
    #expect(FileManager.default.createFile(atPath: path, contents: Data("keep".utf8)))
    #expect(throws: UnixSocket.SocketError.notASocket(path: path, kind: "regular file")) {
      _ = try UnixSocketListener(path: path)
    }
    let link = directory + "/link"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    #expect(throws: UnixSocket.SocketError.notASocket(path: link, kind: "symbolic link")) {
      _ = try UnixSocketListener(path: link)
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep")
  }

  @Test func closeLeavesASocketThatReplacedOursAlone() throws {
    let path = directory + "/swap.sock"
    let ours = try UnixSocketListener(path: path)
    unlink(path)
    let theirs = try UnixSocketListener(path: path)
    ours.close()
    #expect(UnixSocket.inspect(path) == .liveSocket)
    theirs.close()
  }

  @Test func connectingToNothingSaysSo() {
    let path = directory + "/none.sock"
    #expect(throws: UnixSocket.SocketError.nothingListening(path: path)) {
      _ = try UnixSocket.connect(to: path)
    }
  }

  @Test func aPathOfTheLongestLengthIsBoundAndPrivate() throws {
    // The staging folder's socket path is 13 bytes longer than this one: too long for an
    // address, so it is bound through the folder's descriptor.
    let folder = directory + "/" + String(repeating: "d", count: 90 - directory.utf8.count)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let path = folder + "/" + String(repeating: "s", count: 106 - folder.utf8.count)
    #expect(path.utf8.count == UnixSocket.maximumPathLength)
    let listener = try UnixSocketListener(path: path)
    #expect(mode(of: path).type == S_IFSOCK)
    #expect(mode(of: path).mode == 0o600)
    let client = try UnixSocket.connect(to: path)
    _ = try acceptWithin(listener)
    _ = consume client
    listener.close()
    #expect(access(path, F_OK) != 0)
  }

  @Test func aPathTooLongIsRefused() {
    let path = directory + "/" + String(repeating: "x", count: 120)
    #expect(throws: UnixSocket.SocketError.pathTooLong(path: path)) {
      _ = try UnixSocketListener(path: path)
    }
  }

  @Test func aPrivateFolderIsMadeOrCheckedAndALinkIsRefused() throws {
    let folder = directory + "/private"
    let previous = umask(0)
    defer { umask(previous) }
    try UnixSocket.preparePrivateDirectory(folder)
    #expect(mode(of: folder).mode == 0o700)
    try UnixSocket.preparePrivateDirectory(folder)
    let link = directory + "/linked"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder)
    #expect(
      throws: UnixSocket.SocketError.unsafeDirectory(path: link, reason: "is a symbolic link")
    ) {
      try UnixSocket.preparePrivateDirectory(link)
    }
    // Opened to a group's sockets: passable, not listable; never closed again by an instance
    // without a group, and its group left alone.
    try UnixSocket.preparePrivateDirectory(folder, traversable: true)
    #expect(mode(of: folder).mode == 0o711)
    try UnixSocket.preparePrivateDirectory(folder)
    #expect(mode(of: folder).mode == 0o711)
    #expect(mode(of: folder).group == getegid())
    let open = directory + "/open"
    mkdir(open, 0o777)
    #expect(
      throws: UnixSocket.SocketError.unsafeDirectory(path: open, reason: "is writable by others")
    ) {
      try UnixSocket.preparePrivateDirectory(open)
    }
  }
}
