import Receiver
import Testing
import UBX

/// Whole UBX frames whose checksum fails, as the demultiplexer reports them for the device's
/// counters and log.
@Suite struct InputDemultiplexerUBXFaultTests {
  @Test func aFrameWithABadChecksumIsReportedOnceWithWhatItNamed() {
    var demultiplexer = InputDemultiplexer()
    let bad = InputDemultiplexerTests.cfgRATEBadChecksum
    let messages = demultiplexer.append(bad + InputDemultiplexerTests.monVERPoll)
    #expect(messages.count == 1, "only the poll: \(messages)")
    #expect(
      demultiplexer.takeUBXFaults() == [
        UBXInputFault(
          type: .cfgRATE,
          kind: .badChecksum(
            expected: UBXChecksum(a: 0xDE, b: 0x6A), found: UBXChecksum(a: 0xDE, b: 0x6B)))
      ])
    #expect(demultiplexer.takeUBXFaults().isEmpty, "taken")
  }

  /// A frame fed a byte at a time is reported when its last byte arrives, not before.
  @Test func aFrameIsReportedOnlyWhenWhole() {
    var demultiplexer = InputDemultiplexer()
    let bad = InputDemultiplexerTests.cfgRATEBadChecksum
    for byte in bad.dropLast() { _ = demultiplexer.append(CollectionOfOne(byte)) }
    #expect(demultiplexer.takeUBXFaults().isEmpty)
    _ = demultiplexer.append(CollectionOfOne(bad[bad.count - 1]))
    #expect(demultiplexer.takeUBXFaults().count == 1)
  }

  @Test func validFramesAndNonUBXGarbageReportNothing() {
    var demultiplexer = InputDemultiplexer()
    _ = demultiplexer.append(InputDemultiplexerTests.cfgRATE5Hz + Array("junk\r\n".utf8))
    #expect(demultiplexer.takeUBXFaults().isEmpty)
  }
}
