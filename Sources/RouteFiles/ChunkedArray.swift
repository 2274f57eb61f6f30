/// An append-only list kept in chunks, so that growing it never copies what it holds, and then
/// moved into one array of exactly its size.
///
/// An `Array` that grows by appending doubles its storage and copies into it, so while a large
/// route is read it briefly needs twice the memory of its points. Chunks are never copied; the
/// route's array is allocated once at its final size (the system only gives it pages as they are
/// filled) and each chunk is freed as soon as it has been moved (a large one goes straight back
/// to the system), so the points are held about once, not twice. The list must be uniquely held
/// for that: `RouteBuilder.finish` is called on a consumed builder.
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
  mutating func moveAll(appendingTo array: inout [Element]) {
    array.reserveCapacity(array.count + count)
    for index in chunks.indices {
      array += chunks[index]
      chunks[index] = []
    }
    chunks = []
    count = 0
  }
}
