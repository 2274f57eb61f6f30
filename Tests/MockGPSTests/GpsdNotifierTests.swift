import Glibc
import MockGPS
import MockGPSTestSupport
import Servers
import TestFixtures
import Testing

/// The lines `--gpsd-socket` sends to gpsd's control socket (gpsd.c, `handle_control`).
@Suite(.blocking) struct GpsdNotifierTests {
  @Test func addAndRemoveNameTheLinkAfterPlusOrMinusEndedWithCRLF() {
    let notifier = GpsdNotifier(socketPath: "/run/gpsd.sock", linkPath: "/dev/ttyMOCKGPS")
    #expect(notifier.command(adding: true) == "+/dev/ttyMOCKGPS\r\n")
    #expect(notifier.command(adding: false) == "-/dev/ttyMOCKGPS\r\n")
  }

  @Test func aRelativeLinkIsToldAsAnAbsolutePath() {
    var buffer = [CChar](repeating: 0, count: 4096)
    let folder = String(cString: getcwd(&buffer, buffer.count))
    let notifier = GpsdNotifier(socketPath: "g.sock", linkPath: "ttyMOCKGPS")
    #expect(notifier.devicePath == (folder == "/" ? "" : folder) + "/ttyMOCKGPS")
  }

  @Test func gpsdCanNameOnlyPathsOfPrintableASCIIWithoutSpaces() {
    #expect(GpsdNotifier.canAnnounce("/dev/ttyMOCKGPS-1_a.b"))
    for path in ["", "/tmp/my gps", "/tmp/a\tb", "/tmp/é", "/tmp/a\u{7F}"] {
      #expect(!GpsdNotifier.canAnnounce(path), "\(path)")
    }
  }

  @Test func nobodyListeningIsAFailureNamingIt() {
    let notifier = GpsdNotifier(
      socketPath: "/tmp/mockgps-no-gpsd-\(getpid()).sock", linkPath: "/dev/ttyMOCKGPS")
    #expect(throws: GpsdNotifier.Failure.unreachable(.nothingListening(path: notifier.socketPath)))
    {
      try notifier.add()
    }
  }
}
