import Glibc
import RouteFiles

/// Streams a log from its file as epochs: a raw NMEA log, a gpsd test log, a binary capture or
/// a mockgps recording. Holds one chunk of the file and one epoch, whatever the log's size.
///
/// PLACEHOLDER (contract only): this version gives every packet as its own untimed epoch, has
/// no `--time now`, loop or recording support, and reads the whole file at open; the real
/// reader (epochs by time field, recordings, loops, streaming) replaces it.
public final class ReplayReader: ReplayEpochSource {
  /// The file as named.
  public let path: String
  public let options: ReplayOptions
  /// The headers read so far: all of them once the first epoch is out, since headers come
  /// before the data.
  public private(set) var header = LogHeader()
  /// What the replay has met so far.
  public private(set) var statistics = ReplayStatistics()
  private var packets: [LogPacket] = []
  private var index = 0

  /// Opens `path` and reads up to its first replayable packet.
  ///
  /// - Throws: `.unreadable` (exit 66) for a missing or unreadable file, `.invalid` (exit 65)
  ///   naming the file when it holds nothing to replay.
  public init(path: String, options: ReplayOptions = ReplayOptions()) throws(InputFileError) {
    self.path = path
    self.options = options
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    var splitter = LogPacketSplitter()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      guard count > 0 else { break }
      packets += splitter.packets(from: buffer[..<count])
    }
    packets += splitter.finish()
    for packet in packets where packet.kind == .comment { _ = header.read(comment: packet.bytes) }
    guard packets.contains(where: { $0.kind != .comment && $0.kind != .garbage }) else {
      throw .invalid([InputDiagnostic(InputLocation(file: path), "nothing to replay")])
    }
  }

  /// Sets the UTC time (nanoseconds since 1970) at which the first epoch goes out, which
  /// `--time now` moves the log's times to. Call it once, before the first `next()`.
  public func begin(liveStartNanoseconds: Int64) {}

  /// The next epoch, or nil at the end of a log played once.
  ///
  /// - Throws: `.unreadable` when the file can no longer be read.
  public func next() throws(InputFileError) -> ReplayEpoch? {
    guard index < packets.count else { return nil }
    defer { index += 1 }
    statistics.epochs += 1
    return ReplayEpoch(offsetNanoseconds: nil, packets: [packets[index]])
  }
}
