#!/usr/bin/env python3
"""Solves a UBX capture of RXM-RAWX and RXM-SFRBX, or an RTCM 3 stream of observations (MSM) and
ephemerides (1019), with RTKLIB and pyubx2 or pyrtcm, independent of mockgps.

Usage: rtklib_oracle.py [--systems=G,E,C] FILE X Y Z [rtcm3 "YYYY/MM/DD hh:mm:ss"]
X Y Z is the emitted position (ECEF, meters); --systems names the systems rnx2rtkp solves with
(RINEX letters; GPS alone by default). With `rtcm3` the file is RTCM 3, decoded by pyrtcm
instead of pyubx2, and the time (GPS, within half a week of the stream's) lets convbin resolve the
week MSM time tags omit (`-tr`); the clock reset count is then 0. pyubx2 decodes every frame (checksums validated);
RTKLIB's convbin turns the capture into RINEX 3 observation and navigation files and rnx2rtkp
computes a single-point solution (broadcast ephemeris, Klobuchar ionosphere from the navigation
file's header, Saastamoinen troposphere) for every epoch. Prints one JSON object: the frames
pyubx2 read by identity, its errors, the RXM-RAWX epochs flagged with a clock reset, the RINEX files' epoch and ephemeris counts, and the solution's 3D errors from X Y Z
(count, mean, 95th percentile, max, how many within 2 m, and the length of the mean error
vector) and the RMS of the pseudorange residuals of the satellites used, with rnx2rtkp's output
when it solved nothing.
"""
import json
import math
import os
import subprocess
import sys
import tempfile

from pyrtcm import RTCMReader
from pyubx2 import UBX_PROTOCOL, VALCKSUM, UBXReader

from rtklib_capture import readable_copy


def decode(path, rtcm):
    counts, errors, resets = {}, [], 0
    with open(path, "rb") as stream:
        if rtcm:
            reader = RTCMReader(stream, validate=VALCKSUM, quitonerror=1,
                                errorhandler=lambda error: errors.append(str(error)))
        else:
            reader = UBXReader(stream, protfilter=UBX_PROTOCOL, validate=VALCKSUM, quitonerror=0,
                               errorhandler=lambda error: errors.append(str(error)))
        for _, message in reader:
            if message is None:
                continue
            counts[message.identity] = counts.get(message.identity, 0) + 1
            if message.identity == "RXM-RAWX":
                resets += message.clkReset
    return counts, errors, resets


def run(arguments, folder):
    return subprocess.run(arguments, cwd=folder, capture_output=True, text=True, timeout=120)


SYSTEM_BITS = {"G": 1, "R": 4, "E": 8, "C": 32}


def main():
    options = [argument for argument in sys.argv[1:] if argument.startswith("--")]
    arguments = [sys.argv[0]] + [argument for argument in sys.argv[1:]
                                 if not argument.startswith("--")]
    systems = "G"
    for option in options:
        if option.startswith("--systems="):
            systems = option.split("=", 1)[1]
    navsys = sum(SYSTEM_BITS[letter] for letter in systems.split(","))
    path = os.path.abspath(arguments[1])
    truth = [float(value) for value in arguments[2:5]]
    rtcm = arguments[5:6] == ["rtcm3"]
    counts, errors, resets = decode(path, rtcm)
    result = {"frames": counts, "decodeErrors": errors[:10], "clockResets": resets}
    with tempfile.TemporaryDirectory() as folder:
        observations = os.path.join(folder, "capture.obs")
        navigation = os.path.join(folder, "capture.nav")
        solution = os.path.join(folder, "capture.pos")
        source = ["-r", "rtcm3", "-tr", arguments[6]] if rtcm else ["-r", "ubx"]
        readable = path if rtcm else readable_copy(path, folder)
        converted = run(["convbin"] + source + ["-v", "3.04", "-od", "-os", "-oi", "-ot",
                         "-o", observations,
                         "-n", navigation, readable], folder)
        result["convbin"] = converted.returncode
        if os.path.exists(observations):
            with open(observations) as file:
                result["observationEpochs"] = sum(1 for line in file if line.startswith(">"))
        if os.path.exists(navigation):
            with open(navigation) as file:
                text = file.read()
            lines = [line for line in text.splitlines() if line[1:3].strip().isdigit()]
            records = [line[:1] for line in lines]
            result["ephemerides"] = records.count("G")
            result["ephemeridesBySystem"] = {letter: records.count(letter) for letter in "GREC"}
            # Each record's toc (its first line's epoch), as "YYYY/MM/DD hh:mm:ss".
            result["ephemerisEpochs"] = sorted({"%s/%s/%s %s:%s:%s" % tuple(line[4:23].split())
                                                for line in lines})
            result["ionosphereInHeader"] = "GPSA" in text and "GPSB" in text
        # Single point with the broadcast ionosphere and Saastamoinen troposphere (rnx2rtkp's
        # defaults correct neither), the default 15 degree elevation mask.
        options = os.path.join(folder, "single.conf")
        with open(options, "w") as file:
            file.write("pos1-posmode=single\npos1-ionoopt=brdc\npos1-tropopt=saas\n"
                       f"pos1-navsys={navsys}\nout-outstat=residual\n")
        solved = run(["rnx2rtkp", "-k", options, "-e", "-o", solution, observations, navigation],
                     folder)
        result["rnx2rtkp"] = solved.returncode
        distances, offsets = [], []
        if os.path.exists(solution):
            with open(solution) as file:
                for line in file:
                    if line.startswith("%") or not line.strip():
                        continue
                    fields = line.split()
                    position = [float(value) for value in fields[2:5]]
                    distances.append(math.dist(position, truth))
                    offsets.append([a - b for a, b in zip(position, truth)])
        # The pseudorange residuals of the satellites each solution used (the $SAT lines, which
        # list only those, field 7: resp): the measurements against their ephemerides, whatever
        # the geometry.
        residuals = []
        if os.path.exists(solution + ".stat"):
            with open(solution + ".stat") as file:
                for line in file:
                    fields = line.split(",")
                    if fields[0] == "$SAT" and len(fields) > 7:
                        residuals.append(float(fields[7]))
        if residuals:
            result["residualRMS"] = math.sqrt(sum(r * r for r in residuals) / len(residuals))
        if not distances:
            result["rnx2rtkpOutput"] = (solved.stdout + solved.stderr)[-2000:]
            result["convbinOutput"] = (converted.stdout + converted.stderr)[-2000:]
    distances.sort()
    result["solutions"] = len(distances)
    if distances:
        result["meanError"] = sum(distances) / len(distances)
        result["p95Error"] = distances[min(len(distances) - 1, math.ceil(0.95 * len(distances)) - 1)]
        result["maxError"] = distances[-1]
        result["within2m"] = sum(1 for distance in distances if distance <= 2.0)
        # The mean error vector: noise averages out over the epochs, a model error does not.
        result["meanOffset"] = math.hypot(*[sum(axis) / len(offsets) for axis in zip(*offsets)])
    print(json.dumps(result))


if __name__ == "__main__":
    main()
