import DeviceRuntime
import Wire

/// A replayed epoch's packets, as the epoch listeners are handed them: the log's packets
/// themselves, whose bytes are read only when a listener asks.
struct ReplayedPackets: HeldPackets {
  let packets: [LogPacket]

  var packetBytes: [ArraySlice<UInt8>] { packets.map(\.bytes) }
}
