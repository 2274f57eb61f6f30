import SystemIO
import Testing

/// Which terminal a path names after its receiver went away: a serial port is its node; a
/// pseudo-terminal is its owner's only through a link made afresh.
@Suite struct TerminalIdentityTests {
  static let oldLink = TerminalIdentity.FileStamp(
    device: 1, inode: 10, changeSeconds: 100, changeNanoseconds: 5)
  static let newLink = TerminalIdentity.FileStamp(
    device: 1, inode: 11, changeSeconds: 160, changeNanoseconds: 7)

  @Test func aSerialPortIsOpenedAgainByItsNodeOrItsLink() {
    let before = TerminalIdentity(link: nil, target: "/dev/ttyUSB0")
    #expect(TerminalIdentity.reconnection(from: before, to: before) == .open)
    let linked = TerminalIdentity(link: Self.oldLink, target: "/dev/ttyACM0")
    #expect(TerminalIdentity.reconnection(from: linked, to: linked) == .open)
  }

  @Test func aPseudoTerminalBehindTheOldLinkIsAStrangers() {
    let before = TerminalIdentity(link: Self.oldLink, target: "/dev/pts/5")
    guard case .refuse(let reason) = TerminalIdentity.reconnection(from: before, to: before) else {
      Issue.record("the old link's freed number was taken for the receiver")
      return
    }
    #expect(reason.contains("taken by another program"))
  }

  @Test func aPseudoTerminalBehindANewLinkIsItsOwnersAgain() {
    let before = TerminalIdentity(link: Self.oldLink, target: "/dev/pts/5")
    for target in ["/dev/pts/5", "/dev/pts/9"] {
      let now = TerminalIdentity(link: Self.newLink, target: target)
      #expect(TerminalIdentity.reconnection(from: before, to: now) == .open)
    }
  }

  @Test func aPseudoTerminalNamedDirectlyIsNeverOpenedAgain() {
    let before = TerminalIdentity(link: nil, target: "/dev/pts/5")
    guard case .refuse = TerminalIdentity.reconnection(from: before, to: before) else {
      Issue.record("a /dev/pts path was opened again")
      return
    }
  }
}
