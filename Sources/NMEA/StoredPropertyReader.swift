/// Reads one property of a sentence for encoding, at the price of a load.
///
/// Applying a key path goes through the runtime (about 3,000 instructions a field, a third of an
/// epoch's cost); a stored property of a struct sits at a fixed offset that
/// `MemoryLayout.offset(of:)` gives once, so each read is a copy from that offset. A property
/// that is not stored (computed, or behind a class) has no offset and is read through its key
/// path.
struct StoredPropertyReader<Root, Value>: @unchecked Sendable {
  // @unchecked: the key path is Sendable (the factories of `FieldSpec` take only Sendable
  // ones) and the offset is a value.
  let keyPath: KeyPath<Root, Value>
  let offset: Int?

  /// A reader of the property at `keyPath`.
  init(_ keyPath: KeyPath<Root, Value>) {
    self.keyPath = keyPath
    self.offset = MemoryLayout<Root>.offset(of: keyPath)
  }

  /// The property's value in the root `root` points to.
  ///
  /// A pointer rather than the root itself: the root is a whole sentence, which a reader per
  /// field would otherwise copy to take the address of.
  func read(_ root: UnsafePointer<Root>) -> Value {
    guard let offset else { return root.pointee[keyPath: keyPath] }
    return UnsafeRawPointer(root).load(fromByteOffset: offset, as: Value.self)
  }
}
