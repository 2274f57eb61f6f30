/// One direction of a serial line whose two ends may run at different speeds: what a UART at
/// `receiverBaud` makes of 8N1 bytes a UART sends at `senderBaud`.
///
/// The sender puts each byte on the line as a start bit (low), eight data bits least
/// significant first and a stop bit (high), the bytes of a write back to back, and holds the
/// line high (idle) between writes. The receiver waits for a falling edge, samples the start
/// bit in its middle (still high: a glitch, it waits for the next edge), then each data bit
/// and the stop bit in their middles at its own bit time, and delivers the byte. A low stop bit
/// is a framing error: Linux, in raw mode with `INPCK` off (`cfmakeraw`, gpsd), delivers the
/// byte as received, and so does this. It then waits for the next falling edge after the stop
/// bit's sample. At equal speeds every byte arrives as sent.
///
/// Pure and deterministic: time is counted in units of `1 / (senderBaud × receiverBaud)`
/// seconds, so that both bit times are whole numbers (a sender bit lasts `receiverBaud` units,
/// a receiver bit `senderBaud`), and a sample that falls exactly on the boundary of two sent
/// bits reads the later one (a real UART detects the edge a fraction of a bit late).
///
/// The bits a frame in progress still needs may not have been sent yet: `send` keeps them
/// pending and the next `send` (which continues the line after the given idle gap) or `idle()`
/// (the line stays high) completes it. So the bytes received do not depend on how the sent
/// bytes were cut into writes, only on the idle gaps between them.
public struct UARTLine: Sendable {
  /// The sender's bits per second.
  public let senderBaud: Int
  /// The receiver's bits per second.
  public let receiverBaud: Int
  /// The line levels sent and not yet left behind by the receiver, one per sender bit; true
  /// is high. `levels[0]` starts at `origin`.
  private var levels: [Bool] = []
  /// Time units at which `levels[0]` starts.
  private var origin: Int64 = 0
  /// The level before `levels[0]` (the line starts idle, high).
  private var levelBefore = true
  /// Where the receiver stands: looking for a falling edge after a time, or in a frame.
  private var state = State.hunting(after: -1)
  /// High bits `idle()` added after the last bits sent: the line time of an idle gap they
  /// already cover.
  private var idleBitsAdded = 0

  private enum State: Sendable {
    /// Waiting for a falling edge strictly after this time.
    case hunting(after: Int64)
    /// A frame whose start edge came at this time.
    case inFrame(start: Int64)
  }

  /// A line from a UART at `senderBaud` to one at `receiverBaud` (both positive), idle.
  public init(senderBaud: Int, receiverBaud: Int) {
    self.senderBaud = max(1, senderBaud)
    self.receiverBaud = max(1, receiverBaud)
  }

  /// A sent bit's duration in time units.
  private var senderBit: Int64 { Int64(receiverBaud) }
  /// A received bit's duration in time units.
  private var receiverBit: Int64 { Int64(senderBaud) }

  /// The longest idle gap that matters, in sender bits: a received frame (ten received bits)
  /// and one more bit. After it the receiver waits for the next start bit whatever came before,
  /// so a longer gap is this one.
  private var resynchronisingBits: Int { 10 * senderBaud / receiverBaud + 2 }

  /// Sends `bytes` after the line has been idle (high) for `idleBitsBefore` sender bits since
  /// the last bits sent (`.max`: long enough to resynchronise), and returns the bytes the
  /// receiver has completed since the last call. A frame that still needs bits after these
  /// waits for the next call.
  public mutating func send(_ bytes: some Sequence<UInt8>, idleBitsBefore: Int = 0) -> [UInt8] {
    let gap = min(max(0, idleBitsBefore - idleBitsAdded), resynchronisingBits)
    idleBitsAdded = 0
    levels.append(contentsOf: repeatElement(true, count: gap))
    for byte in bytes {
      levels.append(false)
      for bit in 0..<8 { levels.append(byte >> UInt8(bit) & 1 == 1) }
      levels.append(true)
    }
    return receive()
  }

  /// The line stays idle (high): completes the frame in progress, if any, and returns what the
  /// receiver completed.
  public mutating func idle() -> [UInt8] {
    var received = receive()
    // A frame completed by the idle line may be followed by another begun in the bits sent.
    while case .inFrame(let start) = state {
      let needed = start + receiverBit * 19 / 2 + 1 - end
      let bits = Int((needed + senderBit - 1) / senderBit)
      levels.append(contentsOf: repeatElement(true, count: bits))
      idleBitsAdded += bits
      received += receive()
    }
    return received
  }

  /// The time at which the bits sent so far end.
  private var end: Int64 { origin + Int64(levels.count) * senderBit }

  /// The level at `time`, which must lie within the bits sent (a boundary reads the later bit).
  private func level(at time: Int64) -> Bool {
    let index = Self.floorDivision(time - origin, senderBit)
    return index < 0 ? levelBefore : levels[index]
  }

  /// Runs the receiver over the bits sent so far.
  private mutating func receive() -> [UInt8] {
    var received: [UInt8] = []
    while true {
      switch state {
      case .hunting(let after):
        guard let edge = fallingEdge(after: after) else {
          forget(before: end)
          return received
        }
        state = .inFrame(start: edge)
      case .inFrame(let start):
        // The stop bit's sample, the last one, must lie within the bits sent.
        let stopSample = start + receiverBit * 19 / 2
        guard stopSample < end else {
          forget(before: start)
          return received
        }
        guard !level(at: start + receiverBit / 2) else {
          state = .hunting(after: start + receiverBit / 2)
          continue
        }
        var byte: UInt8 = 0
        for bit in 0..<8 where level(at: start + receiverBit * Int64(2 * bit + 3) / 2) {
          byte |= 1 << UInt8(bit)
        }
        received.append(byte)
        state = .hunting(after: stopSample)
      }
    }
  }

  /// The first boundary between sent bits strictly after `time` where the line falls from high
  /// to low, if the bits sent hold one.
  private func fallingEdge(after time: Int64) -> Int64? {
    // Boundary i lies between levels[i - 1] and levels[i], at origin + i × senderBit.
    var index = max(0, Self.floorDivision(time - origin, senderBit) + 1)
    while index < levels.count {
      let before = index == 0 ? levelBefore : levels[index - 1]
      if before && !levels[index] { return origin + Int64(index) * senderBit }
      index += 1
    }
    return nil
  }

  /// `dividend / divisor` rounded toward minus infinity (`divisor` positive).
  private static func floorDivision(_ dividend: Int64, _ divisor: Int64) -> Int {
    let quotient = dividend / divisor
    return Int(dividend % divisor < 0 ? quotient - 1 : quotient)
  }

  /// Drops the bits that end at or before `time`, keeping the level of the last one dropped.
  private mutating func forget(before time: Int64) {
    let count = min(levels.count, max(0, Self.floorDivision(time - origin, senderBit)))
    guard count > 0 else { return }
    levelBefore = levels[count - 1]
    levels.removeFirst(count)
    origin += Int64(count) * senderBit
  }
}
