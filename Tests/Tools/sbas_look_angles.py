#!/usr/bin/env python3
"""Look angles of a geostationary satellite, an oracle independent of the Swift Geodesy module.

Usage: sbas_look_angles.py LAT LON HEIGHT SAT_LON...
Prints "SAT_LON elevation azimuth" (degrees) for a satellite 42,164 km from the Earth's centre
over longitude SAT_LON on the equator, seen from the geodetic position LAT, LON (degrees) and
HEIGHT (m above the WGS84 ellipsoid): the observer's ECEF from geographiclib's WGS84 constants,
the line of sight rotated into east-north-up with numpy.
"""
import math
import sys

import numpy as np
from geographiclib.constants import Constants

RADIUS = 42_164_000.0


def look(lat, lon, height, sat_lon):
    a, f = Constants.WGS84_a, Constants.WGS84_f
    e2 = f * (2 - f)
    p, l = math.radians(lat), math.radians(lon)
    n = a / math.sqrt(1 - e2 * math.sin(p) ** 2)
    observer = np.array([(n + height) * math.cos(p) * math.cos(l),
                         (n + height) * math.cos(p) * math.sin(l),
                         (n * (1 - e2) + height) * math.sin(p)])
    satellite = np.array([RADIUS * math.cos(math.radians(sat_lon)),
                          RADIUS * math.sin(math.radians(sat_lon)), 0.0])
    rotation = np.array([[-math.sin(l), math.cos(l), 0],
                         [-math.sin(p) * math.cos(l), -math.sin(p) * math.sin(l), math.cos(p)],
                         [math.cos(p) * math.cos(l), math.cos(p) * math.sin(l), math.sin(p)]])
    east, north, up = rotation @ (satellite - observer)
    return (math.degrees(math.atan2(up, math.hypot(east, north))),
            math.degrees(math.atan2(east, north)) % 360)


def main(args):
    lat, lon, height = (float(x) for x in args[:3])
    for sat_lon in args[3:]:
        elevation, azimuth = look(lat, lon, height, float(sat_lon))
        print(f"{sat_lon} {elevation:.6f} {azimuth:.6f}")


if __name__ == "__main__":
    main(sys.argv[1:])
