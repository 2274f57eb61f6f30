import Foundation
import Glibc
import Replay

/// A `mockgps record` process, started and ready: it has opened the device and written its
/// header.
struct Recorder {
  let process: TestProcess

  init(device: String, out: String, _ arguments: [String] = []) throws {
    process = try TestProcess(MockGPSBinary.path, ["record", device, "--out", out] + arguments)
    let magic = Data(RecordingFormat.magic.utf8)
    let process = process
    let ready = process.wait(seconds: 10) {
      !process.isRunning || FileManager.default.contents(atPath: out)?.starts(with: magic) == true
    }
    guard ready, process.isRunning else {
      process.kill()
      throw TestFailure("mockgps record did not start: \(process.standardError)")
    }
  }

  /// Nanoseconds since 1970, as the recorder stamps its records.
  static func realtimeNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
  }

  /// This process's umask, from /proc (setting it to read it would race other tests).
  static var umask: mode_t {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") } ?? "Umask: 022"
    return mode_t(line.split(separator: "\t").last.flatMap { UInt32($0, radix: 8) } ?? 0o22)
  }
}

/// A recording read back with `RecordingParser`.
struct Recording {
  var headers: [String] = []
  var chunks: [RecordedChunk] = []
  /// Malformed items, as `line N: reason`.
  var problems: [String] = []

  init(path: String) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    var parser = RecordingParser()
    for item in parser.items(from: data) + parser.finish() {
      switch item {
      case .header(let text, _): headers.append(text)
      case .chunk(let chunk): chunks.append(chunk)
      case .malformed(let line, let reason), .corruptCount(let line, let reason):
        problems.append("line \(line): \(reason)")
      }
    }
  }

  /// All the bytes read, in order.
  var bytes: [UInt8] { chunks.flatMap(\.bytes) }

  /// The arrival time of the read that brought the byte at `offset` of `bytes`.
  func arrival(ofByteAt offset: Int) -> Int64? {
    var start = 0
    for chunk in chunks {
      if offset < start + chunk.bytes.count { return chunk.arrivalNanoseconds }
      start += chunk.bytes.count
    }
    return nil
  }

  /// The indices of the reads that came after a silence of at least `minimumGapNanoseconds`:
  /// the starts of whole bursts (the first read, which may be mid-burst, is not one).
  func burstStartIndices(minimumGapNanoseconds: Int64) -> [Int] {
    chunks.indices.dropFirst().filter {
      chunks[$0].arrivalNanoseconds - chunks[$0 - 1].arrivalNanoseconds >= minimumGapNanoseconds
    }
  }

  /// The arrival times of each epoch's first and last bytes: an epoch runs from a sentence of
  /// the type that opens the epochs, the type most bursts begin with (`burstStartIndices`), to
  /// the byte before the next one (the last to the recording's end). Unlike the bursts, an
  /// epoch whose writes were held up halfway for longer than the gap is one epoch, not two.
  func epochSpans(minimumGapNanoseconds: Int64) -> [(start: Int64, end: Int64)] {
    var chunkOffsets = [0]
    for chunk in chunks {
      chunkOffsets.append(chunkOffsets[chunkOffsets.count - 1] + chunk.bytes.count)
    }
    let all = bytes
    func type(at offset: Int) -> ArraySlice<UInt8>? {
      guard offset < all.count, all[offset] == UInt8(ascii: "$") else { return nil }
      let end = all[offset...].prefix(8).firstIndex(of: UInt8(ascii: ",")) ?? offset
      return end > offset ? all[offset..<end] : nil
    }
    let opening = Dictionary(
      grouping: burstStartIndices(minimumGapNanoseconds: minimumGapNanoseconds).compactMap {
        type(at: chunkOffsets[$0])
      }, by: { $0 }
    ).max { $0.value.count < $1.value.count }?.key
    guard let opening else { return [] }
    let starts = all.indices.filter { type(at: $0) == opening }
    let ends = starts.dropFirst().map { $0 - 1 } + [all.count - 1]
    return zip(starts, ends).compactMap { start, end in
      guard let first = arrival(ofByteAt: start), let last = arrival(ofByteAt: end) else {
        return nil
      }
      return (first, last)
    }
  }

  /// The whole sentences in `bytes`: from the first `$` (what came before is the tail of a
  /// sentence the recording started in), each ended by CR LF; an unended last one is left out.
  static func sentences(in bytes: [UInt8]) -> [String] {
    guard let first = bytes.firstIndex(of: UInt8(ascii: "$")) else { return [] }
    let text = String(decoding: bytes[first...], as: UTF8.self)
    return Array(text.components(separatedBy: "\r\n").dropLast())
  }

  /// The time of an RMC sentence in hundredths of a second of the day, or nil for another.
  static func rmcCentiseconds(_ sentence: String) -> Int? {
    let fields = sentence.split(separator: ",", omittingEmptySubsequences: false)
    guard fields.count > 1, fields[0].hasSuffix("RMC"), fields[1].count >= 6,
      let hours = Int(fields[1].prefix(2)), let minutes = Int(fields[1].dropFirst(2).prefix(2)),
      let seconds = Double(fields[1].dropFirst(4))
    else { return nil }
    return (hours * 3600 + minutes * 60) * 100 + Int((seconds * 100).rounded())
  }
}

/// A pseudo-terminal opened by the test: it writes the master, the recorder opens the slave.
final class PseudoTerminalPair {
  let master: Int32
  let slavePath: String

  init() throws {
    var master: Int32 = -1
    var slave: Int32 = -1
    guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw TestFailure("no pty") }
    var name = [CChar](repeating: 0, count: 128)
    ttyname_r(slave, &name, name.count)
    self.master = master
    slavePath = String(
      decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    close(slave)
  }

  deinit { close(master) }

  /// The slave's output speed, as `tcgetattr` reads it through a new descriptor.
  var slaveSpeed: speed_t {
    let descriptor = open(slavePath, O_RDWR | O_NOCTTY | O_NONBLOCK)
    defer { close(descriptor) }
    var attributes = termios()
    tcgetattr(descriptor, &attributes)
    return cfgetospeed(&attributes)
  }
}
