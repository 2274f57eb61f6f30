import Control
import Testing

/// Framing of one client's bytes into request lines.
@Suite struct ControlLineReaderTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func manyLinesInOneChunkWithCRLFAndEmptyLines() {
    var reader = ControlLineReader()
    let items = reader.receive(Self.bytes("a\r\nbb\n\n\r\nccc\nd"))
    #expect(items == [.line(Self.bytes("a")), .line(Self.bytes("bb")), .line(Self.bytes("ccc"))])
    #expect(reader.receive(Self.bytes("\n")) == [.line(Self.bytes("d"))])
  }

  @Test func aLineSplitAcrossManyChunks() {
    var reader = ControlLineReader()
    let line = Self.bytes(#"{"cmd":"position","lat":51.5,"lon":-0.14}"#)
    var items: [ControlLineReader.Item] = []
    for byte in line + [0x0D, 0x0A] { items += reader.receive([byte]) }
    #expect(items == [.line(line)])
  }

  @Test func aCRSplitFromItsLF() {
    var reader = ControlLineReader()
    #expect(reader.receive(Self.bytes("ab\r")) == [])
    #expect(
      reader.receive(Self.bytes("\ncd\n")) == [.line(Self.bytes("ab")), .line(Self.bytes("cd"))])
  }

  @Test func nulBytesStayInTheLine() {
    var reader = ControlLineReader()
    #expect(reader.receive([0, 0x61, 0, 0x0A]) == [.line([0, 0x61, 0])])
  }

  @Test func theBoundIsExact() {
    var reader = ControlLineReader(maximumLineLength: 4)
    #expect(reader.receive(Self.bytes("abcd\n")) == [.line(Self.bytes("abcd"))])
    #expect(reader.receive(Self.bytes("abcd\r\n")) == [.line(Self.bytes("abcd"))])
    #expect(reader.receive(Self.bytes("abcde\n")) == [.tooLong])
    #expect(reader.receive(Self.bytes("abcd\rx\n")) == [.tooLong])
    #expect(reader.receive(Self.bytes("ok\n")) == [.line(Self.bytes("ok"))])
  }

  @Test func aTooLongLineIsReportedOnceAndSkippedToItsNewline() {
    var reader = ControlLineReader(maximumLineLength: 8)
    var items: [ControlLineReader.Item] = []
    for _ in 0..<100 { items += reader.receive(Self.bytes("0123456789")) }
    #expect(items == [.tooLong])
    #expect(reader.bufferedByteCount == 0)
    #expect(reader.receive(Self.bytes("tail\nnext\n")) == [.line(Self.bytes("next"))])
  }

  @Test func tenMegabytesWithoutNewlineKeepTheBufferBounded() {
    var reader = ControlLineReader()
    let chunk = [UInt8](repeating: 0x7B, count: 65_536)
    var items: [ControlLineReader.Item] = []
    var largest = 0
    for _ in 0..<160 {
      items += reader.receive(chunk)
      largest = max(largest, reader.bufferedByteCount)
    }
    #expect(items == [.tooLong])
    #expect(largest <= ControlLineReader.defaultMaximumLineLength + 1)
    // One chunk of 10 MB at once: the same.
    var whole = ControlLineReader()
    let tenMegabytes = [UInt8](repeating: 0x41, count: 10 * 1024 * 1024)
    #expect(whole.receive(tenMegabytes) == [.tooLong])
    #expect(whole.bufferedByteCount == 0)
    #expect(
      whole.receive(Self.bytes("\n{\"cmd\":\"status\"}\n")) == [
        .line(Self.bytes(#"{"cmd":"status"}"#))
      ])
  }
}
