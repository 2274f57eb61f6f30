import Geodesy
import Simulation

/// Azimuths and elevations of twelve satellites of the fixture almanac
/// (`Tests/Fixtures/almanac/almanac.yuma.week0149.405504.txt`, toa week 2197, 405504 s) from four
/// places at three times within a day of the toa, computed independently by RTKLIB
/// (`alm2pos`, `utc2gpst`, `pos2ecef`, `satazel`) through pyrtklib 0.2.7 with
/// `Tests/Tools/almanac_reference.py`, run on 2026-11-30.
struct AlmanacReferenceDirection: Sendable {
  enum Site: Sendable {
    case greenwich, sydney, mcmurdo, quito

    var position: GeodeticPosition {
      switch self {
      case .greenwich: return GeodeticPosition(known: 51.4769, 0.0, altitudeMeters: 46)
      case .sydney: return GeodeticPosition(known: -33.8688, 151.2093, altitudeMeters: 40)
      case .mcmurdo: return GeodeticPosition(known: -77.8419, 166.6863, altitudeMeters: 10)
      case .quito: return GeodeticPosition(known: -0.1807, -78.4678, altitudeMeters: 2850)
      }
    }
  }

  var time: String
  var site: Site
  var prn: Int
  var azimuth: Double
  var elevation: Double

  init(_ time: String, _ site: Site, _ prn: Int, azimuth: Double, elevation: Double) {
    self.time = time
    self.site = site
    self.prn = prn
    self.azimuth = azimuth
    self.elevation = elevation
  }

  static let all: [AlmanacReferenceDirection] = [
    .init("2022-02-17T04:00:00Z", .greenwich, 1, azimuth: 149.715, elevation: -21.798),
    .init("2022-02-17T04:00:00Z", .sydney, 1, azimuth: 225.883, elevation: -5.053),
    .init("2022-02-17T04:00:00Z", .mcmurdo, 1, azimuth: 227.315, elevation: 20.367),
    .init("2022-02-17T04:00:00Z", .quito, 1, azimuth: 134.945, elevation: -33.279),
    .init("2022-02-17T04:00:00Z", .greenwich, 2, azimuth: 295.819, elevation: 43.289),
    .init("2022-02-17T04:00:00Z", .sydney, 2, azimuth: 42.255, elevation: -65.944),
    .init("2022-02-17T04:00:00Z", .mcmurdo, 2, azimuth: 117.273, elevation: -64.740),
    .init("2022-02-17T04:00:00Z", .quito, 2, azimuth: 12.870, elevation: 23.370),
    .init("2022-02-17T04:00:00Z", .greenwich, 3, azimuth: 109.199, elevation: 10.965),
    .init("2022-02-17T04:00:00Z", .sydney, 3, azimuth: 275.975, elevation: -18.448),
    .init("2022-02-17T04:00:00Z", .mcmurdo, 3, azimuth: 255.406, elevation: -23.847),
    .init("2022-02-17T04:00:00Z", .quito, 3, azimuth: 78.276, elevation: -55.765),
    .init("2022-02-17T04:00:00Z", .greenwich, 5, azimuth: 291.752, elevation: 0.534),
    .init("2022-02-17T04:00:00Z", .sydney, 5, azimuth: 78.916, elevation: -40.700),
    .init("2022-02-17T04:00:00Z", .mcmurdo, 5, azimuth: 89.761, elevation: -36.458),
    .init("2022-02-17T04:00:00Z", .quito, 5, azimuth: 324.379, elevation: 49.818),
    .init("2022-02-17T04:00:00Z", .greenwich, 7, azimuth: 160.449, elevation: 36.393),
    .init("2022-02-17T04:00:00Z", .sydney, 7, azimuth: 248.483, elevation: -53.037),
    .init("2022-02-17T04:00:00Z", .mcmurdo, 7, azimuth: 208.182, elevation: -32.531),
    .init("2022-02-17T04:00:00Z", .quito, 7, azimuth: 79.762, elevation: -15.025),
    .init("2022-02-17T04:00:00Z", .greenwich, 8, azimuth: 109.430, elevation: -40.358),
    .init("2022-02-17T04:00:00Z", .sydney, 8, azimuth: 252.546, elevation: 33.138),
    .init("2022-02-17T04:00:00Z", .mcmurdo, 8, azimuth: 280.418, elevation: 25.220),
    .init("2022-02-17T04:00:00Z", .quito, 8, azimuth: 171.792, elevation: -61.380),
    .init("2022-02-17T04:00:00Z", .greenwich, 10, azimuth: 133.233, elevation: -86.891),
    .init("2022-02-17T04:00:00Z", .sydney, 10, azimuth: 147.478, elevation: 55.899),
    .init("2022-02-17T04:00:00Z", .mcmurdo, 10, azimuth: 12.376, elevation: 58.932),
    .init("2022-02-17T04:00:00Z", .quito, 10, azimuth: 214.800, elevation: -22.234),
    .init("2022-02-17T04:00:00Z", .greenwich, 13, azimuth: 235.703, elevation: -15.500),
    .init("2022-02-17T04:00:00Z", .sydney, 13, azimuth: 144.872, elevation: -36.132),
    .init("2022-02-17T04:00:00Z", .mcmurdo, 13, azimuth: 133.195, elevation: 0.377),
    .init("2022-02-17T04:00:00Z", .quito, 13, azimuth: 147.067, elevation: 55.447),
    .init("2022-02-17T04:00:00Z", .greenwich, 16, azimuth: 64.723, elevation: 7.050),
    .init("2022-02-17T04:00:00Z", .sydney, 16, azimuth: 315.405, elevation: -7.760),
    .init("2022-02-17T04:00:00Z", .mcmurdo, 16, azimuth: 295.655, elevation: -38.202),
    .init("2022-02-17T04:00:00Z", .quito, 16, azimuth: 8.908, elevation: -63.991),
    .init("2022-02-17T04:00:00Z", .greenwich, 21, azimuth: 139.750, elevation: -40.067),
    .init("2022-02-17T04:00:00Z", .sydney, 21, azimuth: 224.070, elevation: 17.319),
    .init("2022-02-17T04:00:00Z", .mcmurdo, 21, azimuth: 247.520, elevation: 38.731),
    .init("2022-02-17T04:00:00Z", .quito, 21, azimuth: 157.892, elevation: -41.028),
    .init("2022-02-17T04:00:00Z", .greenwich, 26, azimuth: 31.682, elevation: 7.738),
    .init("2022-02-17T04:00:00Z", .sydney, 26, azimuth: 346.065, elevation: -11.107),
    .init("2022-02-17T04:00:00Z", .mcmurdo, 26, azimuth: 329.130, elevation: -50.095),
    .init("2022-02-17T04:00:00Z", .quito, 26, azimuth: 339.899, elevation: -44.015),
    .init("2022-02-17T04:00:00Z", .greenwich, 30, azimuth: 180.503, elevation: 15.744),
    .init("2022-02-17T04:00:00Z", .sydney, 30, azimuth: 216.985, elevation: -48.099),
    .init("2022-02-17T04:00:00Z", .mcmurdo, 30, azimuth: 192.694, elevation: -15.608),
    .init("2022-02-17T04:00:00Z", .quito, 30, azimuth: 99.685, elevation: -1.988),
    .init("2022-02-17T16:38:06Z", .greenwich, 1, azimuth: 246.721, elevation: -63.152),
    .init("2022-02-17T16:38:06Z", .sydney, 1, azimuth: 135.482, elevation: 16.694),
    .init("2022-02-17T16:38:06Z", .mcmurdo, 1, azimuth: 84.303, elevation: 45.655),
    .init("2022-02-17T16:38:06Z", .quito, 1, azimuth: 209.480, elevation: 11.486),
    .init("2022-02-17T16:38:06Z", .greenwich, 2, azimuth: 33.945, elevation: -1.737),
    .init("2022-02-17T16:38:06Z", .sydney, 2, azimuth: 346.055, elevation: -1.148),
    .init("2022-02-17T16:38:06Z", .mcmurdo, 2, azimuth: 330.866, elevation: -41.550),
    .init("2022-02-17T16:38:06Z", .quito, 2, azimuth: 329.762, elevation: -48.693),
    .init("2022-02-17T16:38:06Z", .greenwich, 3, azimuth: 287.743, elevation: -35.498),
    .init("2022-02-17T16:38:06Z", .sydney, 3, azimuth: 97.303, elevation: -9.072),
    .init("2022-02-17T16:38:06Z", .mcmurdo, 3, azimuth: 76.862, elevation: -2.223),
    .init("2022-02-17T16:38:06Z", .quito, 3, azimuth: 257.019, elevation: 38.349),
    .init("2022-02-17T16:38:06Z", .greenwich, 5, azimuth: 63.546, elevation: 17.360),
    .init("2022-02-17T16:38:06Z", .sydney, 5, azimuth: 316.713, elevation: -16.831),
    .init("2022-02-17T16:38:06Z", .mcmurdo, 5, azimuth: 291.027, elevation: -45.787),
    .init("2022-02-17T16:38:06Z", .quito, 5, azimuth: 15.161, elevation: -56.525),
    .init("2022-02-17T16:38:06Z", .greenwich, 7, azimuth: 345.393, elevation: -24.002),
    .init("2022-02-17T16:38:06Z", .sydney, 7, azimuth: 41.518, elevation: 3.209),
    .init("2022-02-17T16:38:06Z", .mcmurdo, 7, azimuth: 27.113, elevation: -27.098),
    .init("2022-02-17T16:38:06Z", .quito, 7, azimuth: 295.775, elevation: -9.617),
    .init("2022-02-17T16:38:06Z", .greenwich, 8, azimuth: 250.055, elevation: -21.530),
    .init("2022-02-17T16:38:06Z", .sydney, 8, azimuth: 129.611, elevation: -30.337),
    .init("2022-02-17T16:38:06Z", .mcmurdo, 8, azimuth: 117.062, elevation: -0.091),
    .init("2022-02-17T16:38:06Z", .quito, 8, azimuth: 183.090, elevation: 65.260),
    .init("2022-02-17T16:38:06Z", .greenwich, 10, azimuth: 170.761, elevation: -19.863),
    .init("2022-02-17T16:38:06Z", .sydney, 10, azimuth: 208.266, elevation: -16.108),
    .init("2022-02-17T16:38:06Z", .mcmurdo, 10, azimuth: 202.178, elevation: 20.624),
    .init("2022-02-17T16:38:06Z", .quito, 10, azimuth: 134.698, elevation: -14.347),
    .init("2022-02-17T16:38:06Z", .greenwich, 13, azimuth: 70.152, elevation: -33.968),
    .init("2022-02-17T16:38:06Z", .sydney, 13, azimuth: 305.821, elevation: 38.364),
    .init("2022-02-17T16:38:06Z", .mcmurdo, 13, azimuth: 310.743, elevation: 0.176),
    .init("2022-02-17T16:38:06Z", .quito, 13, azimuth: 250.308, elevation: -75.022),
    .init("2022-02-17T16:38:06Z", .greenwich, 16, azimuth: 294.191, elevation: 30.654),
    .init("2022-02-17T16:38:06Z", .sydney, 16, azimuth: 56.945, elevation: -60.461),
    .init("2022-02-17T16:38:06Z", .mcmurdo, 16, azimuth: 106.316, elevation: -57.967),
    .init("2022-02-17T16:38:06Z", .quito, 16, azimuth: 3.937, elevation: 31.893),
    .init("2022-02-17T16:38:06Z", .greenwich, 21, azimuth: 227.167, elevation: -46.939),
    .init("2022-02-17T16:38:06Z", .sydney, 21, azimuth: 150.199, elevation: -3.508),
    .init("2022-02-17T16:38:06Z", .mcmurdo, 21, azimuth: 121.895, elevation: 37.885),
    .init("2022-02-17T16:38:06Z", .quito, 21, azimuth: 185.028, elevation: 22.553),
    .init("2022-02-17T16:38:06Z", .greenwich, 26, azimuth: 287.661, elevation: 67.545),
    .init("2022-02-17T16:38:06Z", .sydney, 26, azimuth: 358.931, elevation: -74.247),
    .init("2022-02-17T16:38:06Z", .mcmurdo, 26, azimuth: 158.793, elevation: -69.731),
    .init("2022-02-17T16:38:06Z", .quito, 26, azimuth: 29.698, elevation: 8.468),
    .init("2022-02-17T16:38:06Z", .greenwich, 30, azimuth: 358.350, elevation: -42.142),
    .init("2022-02-17T16:38:06Z", .sydney, 30, azimuth: 41.141, elevation: 28.421),
    .init("2022-02-17T16:38:06Z", .mcmurdo, 30, azimuth: 14.693, elevation: -8.384),
    .init("2022-02-17T16:38:06Z", .quito, 30, azimuth: 276.589, elevation: -22.804),
    .init("2022-02-18T09:15:30Z", .greenwich, 1, azimuth: 47.585, elevation: -12.451),
    .init("2022-02-18T09:15:30Z", .sydney, 1, azimuth: 333.760, elevation: 11.475),
    .init("2022-02-18T09:15:30Z", .mcmurdo, 1, azimuth: 321.203, elevation: -28.837),
    .init("2022-02-18T09:15:30Z", .quito, 1, azimuth: 320.638, elevation: -62.338),
    .init("2022-02-18T09:15:30Z", .greenwich, 2, azimuth: 176.919, elevation: -29.085),
    .init("2022-02-18T09:15:30Z", .sydney, 2, azimuth: 198.635, elevation: -10.273),
    .init("2022-02-18T09:15:30Z", .mcmurdo, 2, azimuth: 194.446, elevation: 31.444),
    .init("2022-02-18T09:15:30Z", .quito, 2, azimuth: 145.315, elevation: -10.185),
    .init("2022-02-18T09:15:30Z", .greenwich, 3, azimuth: 55.303, elevation: -60.156),
    .init("2022-02-18T09:15:30Z", .sydney, 3, azimuth: 338.684, elevation: 77.070),
    .init("2022-02-18T09:15:30Z", .mcmurdo, 3, azimuth: 338.079, elevation: 23.271),
    .init("2022-02-18T09:15:30Z", .quito, 3, azimuth: 237.308, elevation: -48.454),
    .init("2022-02-18T09:15:30Z", .greenwich, 5, azimuth: 191.249, elevation: 14.960),
    .init("2022-02-18T09:15:30Z", .sydney, 5, azimuth: 205.670, elevation: -51.511),
    .init("2022-02-18T09:15:30Z", .mcmurdo, 5, azimuth: 183.244, elevation: -15.766),
    .init("2022-02-18T09:15:30Z", .quito, 5, azimuth: 100.271, elevation: 7.550),
    .init("2022-02-18T09:15:30Z", .greenwich, 7, azimuth: 77.172, elevation: -13.621),
    .init("2022-02-18T09:15:30Z", .sydney, 7, azimuth: 300.805, elevation: 12.430),
    .init("2022-02-18T09:15:30Z", .mcmurdo, 7, azimuth: 294.445, elevation: -16.337),
    .init("2022-02-18T09:15:30Z", .quito, 7, azimuth: 10.520, elevation: -83.685),
    .init("2022-02-18T09:15:30Z", .greenwich, 8, azimuth: 1.977, elevation: -5.630),
    .init("2022-02-18T09:15:30Z", .sydney, 8, azimuth: 17.603, elevation: -7.537),
    .init("2022-02-18T09:15:30Z", .mcmurdo, 8, azimuth: 8.721, elevation: -44.453),
    .init("2022-02-18T09:15:30Z", .quito, 8, azimuth: 317.507, elevation: -22.726),
    .init("2022-02-18T09:15:30Z", .greenwich, 10, azimuth: 326.443, elevation: 13.194),
    .init("2022-02-18T09:15:30Z", .sydney, 10, azimuth: 39.988, elevation: -36.581),
    .init("2022-02-18T09:15:30Z", .mcmurdo, 10, azimuth: 57.683, elevation: -56.785),
    .init("2022-02-18T09:15:30Z", .quito, 10, azimuth: 334.090, elevation: 11.366),
    .init("2022-02-18T09:15:30Z", .greenwich, 13, azimuth: 124.089, elevation: 61.169),
    .init("2022-02-18T09:15:30Z", .sydney, 13, azimuth: 288.547, elevation: -55.936),
    .init("2022-02-18T09:15:30Z", .mcmurdo, 13, azimuth: 222.880, elevation: -53.830),
    .init("2022-02-18T09:15:30Z", .quito, 13, azimuth: 53.186, elevation: -22.070),
    .init("2022-02-18T09:15:30Z", .greenwich, 16, azimuth: 355.586, elevation: -61.749),
    .init("2022-02-18T09:15:30Z", .sydney, 16, azimuth: 66.867, elevation: 48.026),
    .init("2022-02-18T09:15:30Z", .mcmurdo, 16, azimuth: 17.410, elevation: 15.364),
    .init("2022-02-18T09:15:30Z", .quito, 16, azimuth: 252.887, elevation: -21.251),
    .init("2022-02-18T09:15:30Z", .greenwich, 21, azimuth: 22.179, elevation: -2.221),
    .init("2022-02-18T09:15:30Z", .sydney, 21, azimuth: 357.542, elevation: -3.741),
    .init("2022-02-18T09:15:30Z", .mcmurdo, 21, azimuth: 344.125, elevation: -44.277),
    .init("2022-02-18T09:15:30Z", .quito, 21, azimuth: 325.184, elevation: -39.404),
    .init("2022-02-18T09:15:30Z", .greenwich, 26, azimuth: 296.173, elevation: -75.112),
    .init("2022-02-18T09:15:30Z", .sydney, 26, azimuth: 115.579, elevation: 38.869),
    .init("2022-02-18T09:15:30Z", .mcmurdo, 26, azimuth: 43.327, elevation: 39.949),
    .init("2022-02-18T09:15:30Z", .quito, 26, azimuth: 228.525, elevation: -5.713),
    .init("2022-02-18T09:15:30Z", .greenwich, 30, azimuth: 76.324, elevation: 8.457),
    .init("2022-02-18T09:15:30Z", .sydney, 30, azimuth: 304.695, elevation: -9.600),
    .init("2022-02-18T09:15:30Z", .mcmurdo, 30, azimuth: 284.570, elevation: -34.477),
    .init("2022-02-18T09:15:30Z", .quito, 30, azimuth: 29.573, elevation: -66.063),
  ]
}
