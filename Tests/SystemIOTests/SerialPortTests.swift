import Foundation
import Glibc
import SystemIO
import TestFixtures
import Testing

/// A serial port opened on real terminals (a pseudo-terminal's slave stands in for a USB
/// receiver), and refused on what is no terminal.
@Suite(.blocking) struct SerialPortTests {
  @Test func opensAPseudoTerminalRawAtTheBaudAndMovesBytesBothWays() throws {
    let terminal = try PseudoTerminal.open(baud: 4800)
    let port = try SerialPort.open(terminal.slavePath, baud: 38_400)
    #expect(try port.baud() == 38_400)
    #expect(try terminal.lineSettings().baud == 38_400)
    #expect(try !terminal.lineSettings().echoes)
    #expect(try terminal.master.write(Array("$GPZDA*00\r\n".utf8)[...]) == .transferred(11))
    var buffer = [UInt8](repeating: 0, count: 64)
    _ = try Poll.wait([port.pollRequest(.readable)], timeoutMilliseconds: 1000)
    #expect(try port.read(into: &buffer) == .transferred(11))
    #expect(Array(buffer.prefix(11)) == Array("$GPZDA*00\r\n".utf8))
    #expect(try port.read(into: &buffer) == .wouldBlock)
    #expect(try port.write([0xB5, 0x62][...]) == .transferred(2))
    _ = try Poll.wait([terminal.master.pollRequest(.readable)], timeoutMilliseconds: 1000)
    #expect(try terminal.master.read(into: &buffer) == .transferred(2))
  }

  @Test func aHuntingChangeOfBaudDiscardsWhatArrivedAtTheOldRate() throws {
    let terminal = try PseudoTerminal.open(baud: 9600)
    let port = try SerialPort.open(terminal.slavePath, baud: 9600)
    _ = try terminal.master.write(Array(repeating: 0x55, count: 100)[...])
    usleep(50_000)
    try port.setBaud(115_200, discardingInput: true)
    #expect(try port.baud() == 115_200)
    var buffer = [UInt8](repeating: 0, count: 256)
    #expect(try port.read(into: &buffer) == .wouldBlock)
  }

  @Test func aClientsChangeOfBaudKeepsWhatWasReceived() throws {
    let terminal = try PseudoTerminal.open(baud: 9600)
    let port = try SerialPort.open(terminal.slavePath, baud: 9600)
    _ = try terminal.master.write(Array(repeating: 0x55, count: 100)[...])
    usleep(50_000)
    try port.setBaud(4800)
    #expect(try port.baud() == 4800)
    var buffer = [UInt8](repeating: 0, count: 256)
    #expect(try port.read(into: &buffer) == .transferred(100))
  }

  @Test func aMissingPathIsMissing() {
    #expect(throws: SerialPort.OpenError.missing("/dev/mockgps-none")) {
      _ = try SerialPort.open("/dev/mockgps-none", baud: 9600)
    }
  }

  @Test func devNullAndARegularFileAreNotTerminals() throws {
    #expect(throws: SerialPort.OpenError.notATerminal("/dev/null")) {
      _ = try SerialPort.open("/dev/null", baud: 9600)
    }
    let file = NSTemporaryDirectory() + "mockgps-serial-\(UUID().uuidString)"
    _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
    defer { try? FileManager.default.removeItem(atPath: file) }
    #expect(throws: SerialPort.OpenError.notATerminal(file)) {
      _ = try SerialPort.open(file, baud: 9600)
    }
  }

  @Test func aClosedPeerReadsAsLost() throws {
    var terminal: PseudoTerminal? = try PseudoTerminal.open(baud: 9600)
    let path = terminal?.slavePath ?? ""
    let port = try SerialPort.open(path, baud: 9600)
    terminal = nil
    var buffer = [UInt8](repeating: 0, count: 16)
    let events = try Poll.wait([port.pollRequest(.readable)], timeoutMilliseconds: 1000)
    #expect(events.first?.contains(.hangUp) == true)
    let result = Result { try port.read(into: &buffer) }
    switch result {
    case .success(let transfer): #expect(transfer == .transferred(0))
    case .failure(let error): #expect((error as? SystemError)?.errno == EIO)
    }
  }
}
