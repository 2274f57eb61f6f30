#!/usr/bin/env python3
"""Decodes the GLONASS strings of a UBX capture (RXM-SFRBX) with RTKLIB, independent of mockgps.

Usage: rtklib_glonass_oracle.py FILE

RTKLIB's convbin turns the capture into a RINEX 3.04 navigation file. Prints one JSON object:
convbin's exit status, the GLONASS decoder's complaints in its trace (level 2: a Hamming error,
a bad string number) and whether it traced, and each GLONASS ephemeris record: its slot, its
epoch (tb in UTC) and the fields as RINEX prints them (strings, so that the reader knows their
last digit): -tau_n, gamma_n and the frame time, then per axis position, velocity and
acceleration (km, km/s, km/s^2), the health, the frequency channel and the age.
"""
import json
import os
import sys
import tempfile

from rtklib_capture import navigation_records

# The fields of a RINEX 3 GLONASS record after its first line, four a line.
ORBIT_FIELDS = [
    ["x", "vx", "ax", "health"],
    ["y", "vy", "ay", "channel"],
    ["z", "vz", "az", "age"],
]


def numbers(line, start, count):
    """The 19-character fields of a line from `start`, as stripped strings."""
    return [line[start + 19 * index:start + 19 * (index + 1)].strip().replace("D", "E")
            for index in range(count)]


def records(lines):
    """The GLONASS records of a RINEX 3 navigation file's body."""
    found, index = [], 0
    while index < len(lines):
        line = lines[index]
        if line[:1] == "R" and line[1:3].strip().isdigit():
            fields = {"epoch": line[4:23]}
            fields["minusTauN"], fields["gammaN"], fields["frameTime"] = numbers(line, 23, 3)
            for names, orbit in zip(ORBIT_FIELDS, lines[index + 1:index + 4]):
                fields.update(zip(names, numbers(orbit, 4, 4)))
            found.append({"slot": int(line[1:3]), "fields": fields})
            index += 4
        else:
            index += 1
    return found


def main():
    path = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as folder:
        result, body = navigation_records(
            path, folder, 2, lambda line: "gnav" in line or "glostr" in line)
    result["ephemerides"] = records(body)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
