import InputFiles

/// `--shard K/N`: this process runs the devices of a `--config` at positions K, K + N,
/// K + 2N… (counting from 1), so that N hosts given one file and the shards 1/N to N/N run
/// every device once between them.
struct Shard: Equatable {
  /// K, from 1 to `count`.
  let index: Int
  /// N: how many shards the file's devices are spread over.
  let count: Int

  /// The most shards a file may be spread over.
  static let maximumCount = 100_000

  static let expected = "K/N, two whole numbers with 1 <= K <= N <= \(maximumCount)"

  /// `K/N` as written on the command line, or nil when it is anything else.
  init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = NumberSpelling.unsignedInteger(parts[0]), index > 0,
      let count = NumberSpelling.unsignedInteger(parts[1]), index <= count,
      count <= Self.maximumCount
    else { return nil }
    self.index = index
    self.count = count
  }

  /// True when the device at `offset` (from 0) of the file is this shard's.
  func selects(offset: Int) -> Bool { offset % count == index - 1 }

  /// The devices of `devices` this shard runs, in the file's order.
  func select<Device>(_ devices: [Device]) -> [Device] {
    devices.indices.filter(selects(offset:)).map { devices[$0] }
  }
}
