import DeviceRuntime
import Replay

extension DeviceStatistics {
  /// A replay's closing line, with what its log's reader met:
  /// `sent 60 epochs (480 packets, 30012 bytes); 0 late (largest 0.4 ms), 0 epochs (0 bytes)
  /// without a client, 2 waits for the client; 3 packets with a problem, 0 dropped, 0 loops`.
  public func replaySummary(reader: ReplayStatistics) -> String {
    let problems = reader.problems.values.reduce(0, +)
    let lateness = Double(largestLatenessNanoseconds / 100_000) / 10
    return "sent \(epochsSent) epochs (\(packetsSent) packets, \(bytesSent) bytes); "
      + "\(epochsLate) late (largest \(lateness) ms), \(epochsWithoutClient) epochs "
      + "(\(bytesWithoutClient) bytes) without a client, \(clientWaits) waits for the client; "
      + "\(problems) packets with a problem, \(reader.dropped) dropped, \(reader.loops) loops"
  }
}
