import UBX

/// The items one configuration layer holds and their values, compact: two sorted arrays of
/// catalogue indices and values, 10 bytes an item, so that even a layer holding every item of
/// the ZED-F9P's catalogue takes under 9 KiB (a dictionary would take two to four times that).
struct UbloxConfigurationLayer: Hashable, Sendable {
  /// The catalogue indices of the items held, ascending.
  private var indices: [UInt16] = []
  /// Their values, in the same order.
  private var values: [UInt64] = []

  /// The catalogue the indices point into.
  static var catalogue: UBXConfigurationCatalogue { UbloxConfigurationDatabase.catalogue }

  /// How many items the layer holds.
  var count: Int { indices.count }

  /// The bytes its two arrays take on the heap (a 32-byte header each and their capacity),
  /// for the cost budget of a device's configuration.
  var heapBytes: Int { 2 * 32 + indices.capacity * 2 + values.capacity * 8 }

  /// The value the layer holds for an item, or nil; setting nil removes it. A key the
  /// catalogue lacks is never held.
  subscript(key: UBXConfigurationKey) -> UInt64? {
    get {
      guard let index = Self.catalogue.index(of: key) else { return nil }
      let position = position(of: UInt16(index))
      return position < indices.count && indices[position] == UInt16(index)
        ? values[position] : nil
    }
    set {
      guard let index = Self.catalogue.index(of: key) else { return }
      let target = UInt16(index)
      let position = position(of: target)
      let present = position < indices.count && indices[position] == target
      switch (present, newValue) {
      case (true, let value?): values[position] = value
      case (true, nil):
        indices.remove(at: position)
        values.remove(at: position)
      case (false, let value?):
        indices.insert(target, at: position)
        values.insert(value, at: position)
      case (false, nil): break
      }
    }
  }

  /// The items held, in catalogue order.
  var items: [UBXConfigurationItem] {
    zip(indices, values).map { index, value in
      UBXConfigurationItem(key: Self.catalogue.definitions[Int(index)].key, value: value)
    }
  }

  /// The first position whose index is not below `index` (binary search).
  private func position(of index: UInt16) -> Int {
    var low = 0
    var high = indices.count
    while low < high {
      let middle = (low + high) / 2
      if indices[middle] < index { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
