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
import glob
import json
import os
import subprocess
import sys
import tempfile

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
    result = {}
    with tempfile.TemporaryDirectory() as folder:
        # As in rtklib_navigation_oracle.py: a traced run (b34 may crash after its first pass)
        # for the complaints, an untraced one for the RINEX file.
        traced = os.path.join(folder, "traced")
        os.mkdir(traced)
        subprocess.run(["convbin", "-r", "ubx", "-v", "3.04", "-trace", "2", "-n",
                        os.path.join(traced, "capture.nav"), path],
                       cwd=traced, capture_output=True, text=True, timeout=120)
        complaints = []
        for trace in glob.glob(os.path.join(traced, "*.trace")):
            with open(trace, errors="replace") as file:
                complaints += [line.strip() for line in file if "gnav" in line or "glostr" in line]
        result["traceErrors"] = complaints[:20]
        result["traced"] = bool(glob.glob(os.path.join(traced, "*.trace")))
        navigation = os.path.join(folder, "capture.nav")
        converted = subprocess.run(["convbin", "-r", "ubx", "-v", "3.04", "-n", navigation, path],
                                   cwd=folder, capture_output=True, text=True, timeout=120)
        result["convbin"] = converted.returncode
        body = []
        if os.path.exists(navigation):
            with open(navigation) as file:
                lines = file.read().splitlines()
            end = next((n for n, line in enumerate(lines) if "END OF HEADER" in line), -1)
            body = lines[end + 1:]
        else:
            result["convbinOutput"] = (converted.stdout + converted.stderr)[-2000:]
    result["ephemerides"] = records(body)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
