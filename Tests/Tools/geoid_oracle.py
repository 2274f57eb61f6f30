#!/usr/bin/env python3
"""EGM96 geoid heights from PROJ's 15' grid, read independently of mockgps.

Usage: geoid_oracle.py [GTX] < points
  Reads `latitude longitude` in degrees, one point a line, and prints for each the geoid height
  in meters interpolated bilinearly on the 15' grid (at a node of the grid: its value).
  GTX defaults to /usr/share/proj/egm96_15.gtx (Debian's proj-data); exits 3 when it is missing.

GTX: four big-endian doubles (south latitude, west longitude, latitude step, longitude step),
two big-endian int32 (rows, columns), then rows x columns big-endian float32, south to north.
"""
import os
import struct
import sys

path = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/proj/egm96_15.gtx"
if not os.path.exists(path):
    print(f"{path} is missing: apt-get install proj-data (scripts/install-deps --test)",
          file=sys.stderr)
    sys.exit(3)
with open(path, "rb") as file:
    data = file.read()
south, west, dlat, dlon = struct.unpack(">4d", data[:32])
rows, cols = struct.unpack(">2i", data[32:40])
heights = struct.unpack(f">{rows * cols}f", data[40 : 40 + 4 * rows * cols])


def node(row, col):
    return heights[row * cols + col % cols]


def height(lat, lon):
    y = (min(max(lat, south), south + dlat * (rows - 1)) - south) / dlat
    x = ((lon - west) % 360) / dlon
    row = min(int(y), rows - 2)
    col = int(x)
    fy, fx = y - row, x - col
    lower = node(row, col) * (1 - fx) + node(row, col + 1) * fx
    upper = node(row + 1, col) * (1 - fx) + node(row + 1, col + 1) * fx
    return lower * (1 - fy) + upper * fy


for line in sys.stdin:
    if line.strip():
        lat, lon = map(float, line.split())
        print(repr(height(lat, lon)))
