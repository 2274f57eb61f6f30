#!/usr/bin/env python3
"""Checks NMEA sentences with two independent parsers, pynmea2 and pynmeagps.

Usage: validate_nmea.py FILE LAT LON
Every line of FILE must parse in both, with a valid checksum; every GGA, RMC and GLL must carry
LAT and LON within 2e-7 degrees. Prints one line per problem and a summary; exits 1 on any problem.
"""
import sys

import pynmea2
from pynmeagps import NMEAReader

TOLERANCE = 2e-7


def main():
    path, lat, lon = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    problems, types = [], {}
    with open(path, encoding="ascii") as f:
        lines = [l.rstrip("\r\n") for l in f if l.strip()]
    for line in lines:
        try:
            a = pynmea2.parse(line, check=True)
        except Exception as e:  # noqa: BLE001 - report every parser error
            problems.append(f"pynmea2 rejects {line!r}: {e}")
            continue
        try:
            b = NMEAReader.parse(line)
        except Exception as e:  # noqa: BLE001
            problems.append(f"pynmeagps rejects {line!r}: {e}")
            continue
        types[a.sentence_type] = types.get(a.sentence_type, 0) + 1
        if a.sentence_type in ("GGA", "RMC", "GLL"):
            for name, got_a, got_b, want in (("lat", a.latitude, b.lat, lat), ("lon", a.longitude, b.lon, lon)):
                if abs(got_a - want) > TOLERANCE or abs(float(got_b) - want) > TOLERANCE:
                    problems.append(f"{name} of {line!r}: pynmea2 {got_a}, pynmeagps {got_b}, expected {want}")
    for p in problems:
        print(p)
    print(f"{len(lines)} sentences, types {dict(sorted(types.items()))}, {len(problems)} problems")
    return 1 if problems or not lines else 0


if __name__ == "__main__":
    sys.exit(main())
