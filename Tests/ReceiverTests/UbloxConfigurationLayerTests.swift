import Testing
import UBX

@testable import Receiver

/// The compact layer: values set in any order come back by key and in catalogue order, nil
/// removes, unknown keys are never held, and the whole catalogue fits.
@Suite struct UbloxConfigurationLayerTests {
  static let catalogue = UBXConfigurationCatalogue.zedF9P

  @Test func valuesComeBackByKeyAndInCatalogueOrder() {
    var layer = UbloxConfigurationLayer()
    let definitions = Self.catalogue.definitions
    let chosen = [definitions[500], definitions[3], definitions[800], definitions[42]]
    for (offset, definition) in chosen.enumerated() { layer[definition.key] = UInt64(offset + 1) }
    #expect(layer.count == 4)
    #expect(layer[definitions[800].key] == 3)
    #expect(layer[definitions[4].key] == nil)
    #expect(layer.items.map(\.key) == [3, 42, 500, 800].map { definitions[$0].key })
    layer[definitions[42].key] = 9
    layer[definitions[3].key] = nil
    #expect(layer.items.map(\.value) == [9, 1, 3])
    layer[UBXConfigurationKey(0x2091_0FFE)] = 1
    #expect(layer.count == 3)
  }

  @Test func everyItemOfTheCatalogueFitsInOneLayer() {
    var layer = UbloxConfigurationLayer()
    for definition in Self.catalogue.definitions.reversed() { layer[definition.key] = 7 }
    #expect(layer.count == Self.catalogue.definitions.count)
    #expect(layer.items.map(\.key) == Self.catalogue.definitions.map(\.key))
    // Two sorted arrays: 2 + 8 bytes an item.
    #expect(layer.count * (MemoryLayout<UInt16>.stride + MemoryLayout<UInt64>.stride) < 9 * 1024)
  }
}
