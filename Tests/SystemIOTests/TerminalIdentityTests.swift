import Glibc
import SystemIO
import TestFixtures
import Testing

/// Which terminal a path names after its receiver went away: a serial port is its node; a
/// pseudo-terminal is its owner's only through a link made afresh.
@Suite(.blocking) struct TerminalIdentityTests {
  static let oldLink = TerminalIdentity.FileStamp(
    device: 1, inode: 10, changeSeconds: 100, changeNanoseconds: 5)
  static let newLink = TerminalIdentity.FileStamp(
    device: 1, inode: 11, changeSeconds: 160, changeNanoseconds: 7)

  @Test func aSerialPortIsOpenedAgainByItsNodeOrItsLink() {
    let before = TerminalIdentity(link: nil, target: "/dev/ttyUSB0")
    #expect(TerminalIdentity.ownership(of: before, openedBefore: before) == .open)
    let linked = TerminalIdentity(link: Self.oldLink, target: "/dev/ttyACM0")
    #expect(TerminalIdentity.ownership(of: linked, openedBefore: linked) == .open)
  }

  @Test func aPseudoTerminalBehindTheOldLinkIsAStrangers() {
    let before = TerminalIdentity(link: Self.oldLink, target: "/dev/pts/5")
    guard case .refuse(let reason) = TerminalIdentity.ownership(of: before, openedBefore: before)
    else {
      Issue.record("the old link's freed number was taken for the receiver")
      return
    }
    #expect(reason.contains("taken by another program"))
  }

  @Test func aPseudoTerminalBehindANewLinkIsItsOwnersAgain() {
    let before = TerminalIdentity(link: Self.oldLink, target: "/dev/pts/5")
    for target in ["/dev/pts/5", "/dev/pts/9"] {
      let now = TerminalIdentity(link: Self.newLink, target: target)
      #expect(TerminalIdentity.ownership(of: now, openedBefore: before) == .open)
    }
  }

  @Test func aPseudoTerminalNewerThanItsLinkIsAStrangersEvenAtTheFirstOpen() {
    let stale = TerminalIdentity(link: Self.oldLink, target: "/dev/pts/5", terminal: Self.newLink)
    guard case .refuse(let reason) = TerminalIdentity.ownership(of: stale, openedBefore: nil) else {
      Issue.record("a link older than its terminal was taken for the terminal's")
      return
    }
    #expect(reason.contains("the link is older than '/dev/pts/5'"))
    // Made in the same tick as its link, or before it, the terminal is the link maker's.
    for terminal in [
      Self.oldLink,
      TerminalIdentity.FileStamp(
        device: 9, inode: 3, changeSeconds: 99, changeNanoseconds: 0),
    ] {
      let live = TerminalIdentity(link: Self.oldLink, target: "/dev/pts/5", terminal: terminal)
      #expect(TerminalIdentity.ownership(of: live, openedBefore: nil) == .open)
    }
  }

  @Test func aPseudoTerminalNamedDirectlyIsOpenedTheFirstTimeOnly() {
    let direct = TerminalIdentity(link: nil, target: "/dev/pts/5")
    #expect(TerminalIdentity.ownership(of: direct, openedBefore: nil) == .open)
  }

  @Test func aPseudoTerminalNamedDirectlyIsNeverOpenedAgain() {
    let before = TerminalIdentity(link: nil, target: "/dev/pts/5")
    guard case .refuse = TerminalIdentity.ownership(of: before, openedBefore: before) else {
      Issue.record("a /dev/pts path was opened again")
      return
    }
  }
}

/// Through an alias of the owner's link, the stamp is the owner's link's.
@Suite(.blocking) struct TerminalIdentityChainTests {
  @Test func anAliasTakesTheStampOfTheLinkItLeadsTo() throws {
    var template = Array("/tmp/mockgps-chain-XXXXXX".utf8CString)
    let folder = try #require(mkdtemp(&template).map { String(cString: $0) })
    defer {
      for name in ["alias", "up", "node"] { unlink(folder + "/" + name) }
      rmdir(folder)
    }
    let node = folder + "/node"
    let file = try #require(fopen(node, "w"))
    fclose(file)
    #expect(symlink(node, folder + "/up") == 0)
    #expect(symlink("up", folder + "/alias") == 0)
    let owner = try #require(TerminalIdentity.of(folder + "/up"))
    let alias = try #require(TerminalIdentity.of(folder + "/alias"))
    #expect(alias.link == owner.link)
    #expect(alias.target == owner.target)
    // The owner makes its link anew: the alias shows the new stamp.
    unlink(folder + "/up")
    usleep(10_000)
    #expect(symlink(node, folder + "/up") == 0)
    let renewed = try #require(TerminalIdentity.of(folder + "/alias"))
    #expect(renewed.link != alias.link)
  }
}
