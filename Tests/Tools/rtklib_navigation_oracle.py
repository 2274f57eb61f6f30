#!/usr/bin/env python3
"""Decodes the navigation messages of a UBX capture (RXM-SFRBX) with RTKLIB, independent of
mockgps, and computes the satellites' positions from what it decoded.

Usage: rtklib_navigation_oracle.py FILE

RTKLIB's convbin turns the capture into a RINEX 3.04 navigation file. Prints one JSON object:
convbin's exit status, the decoders' complaints in its trace (level 3) and whether it traced, and
each Galileo and BeiDou ephemeris record: its system, PRN, the fields as RINEX prints them
(strings, so that the reader knows their last digit) and the satellite's ECEF position computed
from them by the user algorithm of IS-GPS-200 Table 20-IV with the system's constants (those of
the Galileo OS SIS ICD and of BDS-SIS-ICD-B1I for MEO and IGSO satellites) every 600 s from
toe - 1 h to toe + 1 h, as [seconds from toe, x, y, z].
"""
import json
import math
import os
import sys
import tempfile

from rtklib_capture import navigation_records

# mu (m^3/s^2) and the Earth's rotation rate (rad/s) of each system's user algorithm.
CONSTANTS = {"E": (3.986004418e14, 7.2921151467e-5), "C": (3.986004418e14, 7.292115e-5)}

# The fields of a RINEX 3 Galileo or BeiDou record after its first line, four a line.
ORBIT_FIELDS = [
    ["iod", "crs", "deltaN", "m0"],
    ["cuc", "e", "cus", "sqrtA"],
    ["toe", "cic", "omega0", "cis"],
    ["i0", "crc", "omega", "omegaDot"],
    ["idot", "codes", "week", "spare"],
    ["accuracy", "health", "groupDelay1", "groupDelay2"],
    ["transmissionTime", "aodc", "spare2", "spare3"],
]


def numbers(line, start, count):
    """The 19-character fields of a line from `start`, as stripped strings."""
    values = []
    for index in range(count):
        text = line[start + 19 * index:start + 19 * (index + 1)].strip()
        values.append(text.replace("D", "E"))
    return values


def records(lines):
    """The Galileo and BeiDou records of a RINEX 3 navigation file's body."""
    found, index = [], 0
    while index < len(lines):
        line = lines[index]
        if line[:1] in ("E", "C") and line[1:3].strip().isdigit():
            fields = {}
            fields["epoch"] = line[4:23]
            fields["af0"], fields["af1"], fields["af2"] = numbers(line, 23, 3)
            for names, orbit in zip(ORBIT_FIELDS, lines[index + 1:index + 8]):
                for name, value in zip(names, numbers(orbit, 4, 4)):
                    fields[name] = value
            found.append({"system": line[0], "prn": int(line[1:3]), "fields": fields})
            index += 8
        else:
            index += 1
    return found


def value(fields, name):
    text = fields.get(name, "")
    return float(text) if text else 0.0


def positions(system, fields):
    """ECEF positions from toe - 3600 s to toe + 3600 s, every 600 s (IS-GPS-200 Table 20-IV)."""
    mu, rotation = CONSTANTS[system]
    a = value(fields, "sqrtA") ** 2
    e = value(fields, "e")
    toe = value(fields, "toe")
    motion = math.sqrt(mu / a ** 3) + value(fields, "deltaN")
    result = []
    for tk in range(-3600, 3601, 600):
        mean = value(fields, "m0") + motion * tk
        eccentric = mean
        for _ in range(30):
            eccentric = mean + e * math.sin(eccentric)
        true = math.atan2(math.sqrt(1 - e * e) * math.sin(eccentric), math.cos(eccentric) - e)
        phi = true + value(fields, "omega")
        sin2, cos2 = math.sin(2 * phi), math.cos(2 * phi)
        u = phi + value(fields, "cus") * sin2 + value(fields, "cuc") * cos2
        r = a * (1 - e * math.cos(eccentric)) + value(fields, "crs") * sin2 \
            + value(fields, "crc") * cos2
        i = value(fields, "i0") + value(fields, "idot") * tk + value(fields, "cis") * sin2 \
            + value(fields, "cic") * cos2
        node = value(fields, "omega0") + (value(fields, "omegaDot") - rotation) * tk \
            - rotation * toe
        x, y = r * math.cos(u), r * math.sin(u)
        result.append([tk, x * math.cos(node) - y * math.cos(i) * math.sin(node),
                       x * math.sin(node) + y * math.cos(i) * math.cos(node), y * math.sin(i)])
    return result


def main():
    path = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as folder:
        result, body = navigation_records(
            path, folder, 3, lambda line: "error" in line or "unsupported" in line)
    found = records(body)
    for record in found:
        record["positions"] = positions(record["system"], record["fields"])
    result["ephemerides"] = found
    print(json.dumps(result))


if __name__ == "__main__":
    main()
