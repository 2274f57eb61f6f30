import Receiver
import Testing

/// The state file's text: written and read back, and each way it can be wrong named with its
/// line and what was expected.
@Suite struct ChipStateTests {
  static let state = ChipState(
    profileName: "ublox-m8",
    records: [
      ChipState.Record(layer: .batteryBacked, item: "06-08/0000", value: [0xC8, 0, 1, 0, 1, 0]),
      ChipState.Record(layer: .flash, item: "30210001", value: [0xC8, 0x00]),
    ])

  @Test func theTextIsAHeaderACommentAndOneLineAnItem() {
    #expect(
      Self.state.text == """
        mockgps-chip-state 1 ublox-m8
        # LAYER ITEM VALUE: bbr or flash, the item, its bytes in hex (see mockgps(1), --state-dir)
        bbr 06-08/0000 c80001000100
        flash 30210001 c800

        """)
  }

  @Test func aTextReadsBackAsTheSameRecordsWithTheirLines() throws {
    let read = try ChipState(text: Self.state.text, profileName: "ublox-m8")
    #expect(read.text == Self.state.text)
    #expect(read.records.map(\.line) == [3, 4])
    #expect(read.records.map(\.value) == Self.state.records.map(\.value))
  }

  @Test func commentsEmptyLinesAndUppercaseHexAreAccepted() throws {
    let text = "mockgps-chip-state 1 ublox-m8\n\n# saved\nflash 06-08/0000 C8000100\n"
    let read = try ChipState(text: text, profileName: "ublox-m8")
    #expect(read.records.map(\.value) == [[0xC8, 0, 1, 0]])
  }

  struct BadCase: CustomTestStringConvertible, Sendable {
    var text: String
    var error: ChipStateError
    var testDescription: String { error.description }
  }

  static let badCases: [BadCase] = [
    BadCase(
      text: "",
      error: ChipStateError(line: 1, "empty file (expected 'mockgps-chip-state 1 ublox-m8')")),
    BadCase(
      text: "{\"devices\": []}\n",
      error: ChipStateError(
        line: 1, "not a chip state file (expected 'mockgps-chip-state 1 ublox-m8')")),
    BadCase(
      text: "mockgps-chip-state 2 ublox-m8\n",
      error: ChipStateError(line: 1, "version '2' (expected 1)")),
    BadCase(
      text: "mockgps-chip-state 1 ublox-f9p\n",
      error: ChipStateError(
        line: 1,
        "written by profile 'ublox-f9p' (expected 'ublox-m8'; remove the file to start from "
          + "the factory settings)")),
    BadCase(
      text: "mockgps-chip-state 1 ublox-m8\nrom 06-08/0000 c800\n",
      error: ChipStateError(line: 2, "layer 'rom' (expected bbr or flash)")),
    BadCase(
      text: "mockgps-chip-state 1 ublox-m8\nflash 06-08/0000 c8 00\n",
      error: ChipStateError(line: 2, "expected 'LAYER ITEM VALUE', got 'flash 06-08/0000 c8 00'")),
    BadCase(
      text: "mockgps-chip-state 1 ublox-m8\nflash 06-08/0000 c80\n",
      error: ChipStateError(
        line: 2, "value 'c80' (expected bytes in hex, two digits each)")),
    BadCase(
      text: "mockgps-chip-state 1 ublox-m8\nflash 06-08/0000 zz\n",
      error: ChipStateError(line: 2, "value 'zz' (expected bytes in hex, two digits each)")),
    BadCase(
      text: "mockgps-chip-state 1 ublox-m8\nflash\t06-08/0000 c800\n",
      error: ChipStateError(line: 2, "expected 'LAYER ITEM VALUE', got 'flash?06-08/0000 c800'")),
  ]

  @Test(arguments: badCases) func aWrongFileIsRefusedAtItsLine(_ badCase: BadCase) {
    #expect(throws: badCase.error) {
      try ChipState(text: badCase.text, profileName: "ublox-m8")
    }
  }
}
