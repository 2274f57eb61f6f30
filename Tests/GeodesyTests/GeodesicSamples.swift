import Geodesy

/// Seeded pseudo-random numbers (SplitMix64), so that every run checks the same cases.
struct SeededRandom {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in `range`.
  mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    let unit = Double(next() >> 11) / Double(UInt64(1) << 53)
    return range.lowerBound + (range.upperBound - range.lowerBound) * unit
  }

  mutating func pick<T>(_ choices: T...) -> T { choices[Int(next() % UInt64(choices.count))] }
}

/// One inverse and one direct problem to compare.
struct GeodesicSample: CustomStringConvertible {
  var kind: Kind
  var a: GeodeticPosition
  var b: GeodeticPosition
  var azimuthDegrees: Double
  var distanceMeters: Double

  enum Kind: String, CaseIterable {
    case general, nearlyAntipodal, closeToAntipodal, equatorial, equatorialAntipodal, meridional
    case polar
    case coincident, tiny
  }

  var description: String {
    "\(kind) \(a.latitude),\(a.longitude) → \(b.latitude),\(b.longitude);"
      + " direct az \(azimuthDegrees) s \(distanceMeters)"
  }

  /// `count` cases of every kind in turn: the general case, the hard ones (within 0.5° and
  /// 0.001° of the antipode, both ends on or a hair off the equator, there within 1° of the
  /// antipode, on one meridian or opposite ones, from or to a pole), coincident points and
  /// lines of a few centimetres.
  /// The direct problems mix lengths up to 100 m, up to 20,000 km and up to 40,000 km
  /// (past the antipode), backwards too.
  static func generate(count: Int, seed: UInt64) -> [GeodesicSample] {
    var random = SeededRandom(seed: seed)
    return (0..<count).map { index in
      let kind = Kind.allCases[index % Kind.allCases.count]
      var lat1 = random.uniform(-90...90)
      let lon1 = random.uniform(-180...180)
      var lat2 = random.uniform(-90...90)
      var lon2 = random.uniform(-180...180)
      switch kind {
      case .general: break
      case .nearlyAntipodal:
        lat2 = -lat1 + random.uniform(-0.5...0.5)
        lon2 = lon1 + 180 + random.uniform(-0.5...0.5)
      case .closeToAntipodal:
        lat2 = -lat1 + random.uniform(-1e-3...1e-3)
        lon2 = lon1 + 180 + random.uniform(-1e-3...1e-3)
      case .equatorial:
        lat1 = random.pick(0, random.uniform(-1e-3...1e-3))
        lat2 = random.pick(0, random.uniform(-1e-3...1e-3))
      case .equatorialAntipodal:
        lat1 = random.pick(0, random.uniform(-1e-3...1e-3))
        lat2 = random.pick(0, -lat1, random.uniform(-1e-3...1e-3))
        lon2 = lon1 + 180 + random.uniform(-1...1)
      case .meridional: lon2 = lon1 + random.pick(0, 180, -180)
      case .polar:
        lat1 = random.pick(90, -90)
        if random.pick(true, false) { swap(&lat1, &lat2) }
      case .coincident: (lat2, lon2) = (lat1, lon1)
      case .tiny:
        lat2 = lat1 + random.uniform(-1e-6...1e-6)
        lon2 = lon1 + random.uniform(-1e-6...1e-6)
      }
      lat2 = min(90, max(-90, lat2))
      lon2 = lon2.remainder(dividingBy: 360)
      let distance = random.pick(
        random.uniform(0...100), random.uniform(0...2e7), random.uniform(-1e5...4e7))
      return GeodesicSample(
        kind: kind, a: GeodeticPosition(known: lat1, lon1), b: GeodeticPosition(known: lat2, lon2),
        azimuthDegrees: random.uniform(-180...360), distanceMeters: distance)
    }
  }
}

/// The smaller angle between two directions, degrees.
func angleBetween(_ x: Double, _ y: Double) -> Double {
  abs((x - y).remainder(dividingBy: 360))
}
