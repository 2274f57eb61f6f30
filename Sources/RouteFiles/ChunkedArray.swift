import Glibc

/// An append-only list kept in chunks, so that growing it never copies what it holds, and then
/// moved into one array of exactly its size.
///
/// An `Array` that grows by appending doubles its storage and copies into it, so while a large
/// route is read it briefly needs twice the memory of its points. Chunks are never copied; the
/// route's array is allocated once at its final size (its pages are only touched as they are
/// filled) and each chunk is freed, and given back to the system, as soon as it has been moved;
/// so the points are held about once, not twice.
struct ChunkedArray<Element> {
  /// The first chunk's capacity; each next one is twice as large, up to `largestChunk`.
  private static var firstChunk: Int { 256 }
  private static var largestChunk: Int { 1 << 16 }

  private var chunks: [[Element]] = []
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }
  var first: Element? { chunks.first?.first }

  mutating func append(_ element: Element) {
    if chunks.isEmpty || chunks[chunks.count - 1].count == chunks[chunks.count - 1].capacity {
      var chunk: [Element] = []
      chunk.reserveCapacity(
        Swift.min(Self.firstChunk << Swift.min(chunks.count, 16), Self.largestChunk))
      chunks.append(chunk)
    }
    chunks[chunks.count - 1].append(element)
    count += 1
  }

  /// Appends every element to `array` in order and empties this list, freeing each chunk once it
  /// has been moved.
  /// glibc's `malloc_trim`, which the `Glibc` module does not declare; nil on another C library.
  private static var giveBackFreedMemory: (@convention(c) (Int) -> Int32)? {
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map {
      unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
    }
  }

  mutating func moveAll(appendingTo array: inout [Element]) {
    array.reserveCapacity(array.count + count)
    for index in chunks.indices {
      array += chunks[index]
      let isLarge = chunks[index].capacity >= Self.largestChunk
      chunks[index] = []
      // glibc keeps freed memory for reuse; this hands the chunk's pages back at once.
      if isLarge { _ = Self.giveBackFreedMemory?(0) }
    }
    chunks = []
    count = 0
  }
}
