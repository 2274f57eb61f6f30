import Geodesy

/// The satellite's motion: its position and velocity in the rotating ECEF frame from one
/// solution of Kepler's equation (the derivatives of IS-GPS-200 Table 20-IV's algorithm, with
/// no harmonic corrections), for what needs the range rate.
extension KeplerianOrbit {
  /// The ECEF position and velocity (m/s, in the rotating frame) at `gpsSeconds`.
  public func positionAndVelocity(atGPSSeconds gpsSeconds: Double) -> (
    position: EarthCenteredPosition, velocity: EarthCenteredPosition
  ) {
    let timeFromReference = secondsFromReference(gpsSeconds)
    let a = semiMajorAxisMeters
    let meanMotion = meanMotionRadiansPerSecond
    let meanAnomaly = meanAnomalyRadians + meanMotion * timeFromReference
    let e = eccentricity
    let eccentricAnomaly = Self.solveKepler(meanAnomaly: meanAnomaly, eccentricity: e)
    let sinE = orbitSine(eccentricAnomaly)
    let cosE = orbitCosine(eccentricAnomaly)
    let root = (1 - e * e).squareRoot()
    let trueAnomaly = orbitArcTangent2(root * sinE, cosE - e)
    let argumentOfLatitude = trueAnomaly + argumentOfPerigeeRadians
    let denominator = 1 - e * cosE
    let radius = a * denominator
    // Ė, then the rates of the argument of latitude and of the radius.
    let eccentricAnomalyRate = meanMotion / denominator
    let latitudeRate = eccentricAnomalyRate * root / denominator
    let radiusRate = a * e * sinE * eccentricAnomalyRate
    let cosU = orbitCosine(argumentOfLatitude)
    let sinU = orbitSine(argumentOfLatitude)
    let xInPlane = radius * cosU
    let yInPlane = radius * sinU
    let xInPlaneRate = radiusRate * cosU - yInPlane * latitudeRate
    let yInPlaneRate = radiusRate * sinU + xInPlane * latitudeRate
    let node = nodeLongitudeRadians(secondsFromReference: timeFromReference)
    let nodeRate = rateOfRightAscensionRadiansPerSecond - Self.earthRotationRate
    let cosNode = orbitCosine(node)
    let sinNode = orbitSine(node)
    let cosI = inclinationCosine
    let sinI = inclinationSine
    let x = xInPlane * cosNode - yInPlane * cosI * sinNode
    let y = xInPlane * sinNode + yInPlane * cosI * cosNode
    return (
      EarthCenteredPosition(x: x, y: y, z: yInPlane * sinI),
      EarthCenteredPosition(
        x: xInPlaneRate * cosNode - yInPlaneRate * cosI * sinNode - y * nodeRate,
        y: xInPlaneRate * sinNode + yInPlaneRate * cosI * cosNode + x * nodeRate,
        z: yInPlaneRate * sinI)
    )
  }
}
