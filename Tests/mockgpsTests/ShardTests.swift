import Testing

@testable import mockgps

/// `--shard K/N`: which devices of a `--config` a process runs.
@Suite struct ShardTests {
  @Test(arguments: [
    ("1/1", 1, 1), ("1/3", 1, 3), ("3/3", 3, 3), ("42/100000", 42, 100_000),
  ])
  func aShardIsTwoWholeNumbers(text: String, index: Int, count: Int) throws {
    let shard = try #require(Shard(text))
    #expect(shard.index == index && shard.count == count)
  }

  @Test(arguments: [
    "", "1", "/", "1/", "/2", "0/2", "3/2", "1/0", "01/2", "1/02", "-1/2", "1/-2", "+1/2", "1.5/2",
    "1/2/3", "a/b", "1 /2", "1/100001", "99999999999999999999/99999999999999999999",
  ])
  func anythingElseIsRefused(text: String) {
    #expect(Shard(text) == nil)
  }

  @Test func theShardsOfAFileRunEachDeviceOnceBetweenThem() throws {
    let devices = Array(0..<10)
    for count in 1...12 {
      let shards = try (1...count).map { try #require(Shard("\($0)/\(count)")) }
      let run = shards.flatMap { $0.select(devices) }
      #expect(run.sorted() == devices, "\(count) shards")
      // Each shard keeps the file's order, and the sizes differ by one at most.
      for shard in shards { #expect(shard.select(devices) == shard.select(devices).sorted()) }
      let sizes = shards.map { $0.select(devices).count }
      #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1, "\(count) shards: \(sizes)")
    }
    #expect(try #require(Shard("2/3")).select(devices) == [1, 4, 7])
  }

  @Test(arguments: [
    (["--shard", "1/2"], "option '--shard' goes with '--config'"),
    (
      ["--config", "f.json", "--shard", "3/2"],
      "invalid value '3/2' for '--shard': expected " + Shard.expected
    ),
    (
      ["--config", "f.json", "--shard", "1/2", "--shard", "2/2"],
      "option '--shard' given more than once"
    ),
  ])
  func theOptionIsCheckedLikeTheOthers(arguments: [String], message: String) {
    #expect(throws: UsageError(message: message)) { try RunOptions.parse(arguments) }
  }

  @Test func theOptionGoesWithConfig() throws {
    let options = try RunOptions.parse(["--config", "f.json", "--shard", "2/5"])
    #expect(options.shard == Shard("2/5"))
    #expect(try RunOptions.parse(["--config", "f.json"]).shard == nil)
  }
}
