#!/usr/bin/env python3
"""Solves a rover's and a base's UBX captures (RXM-RAWX, RXM-SFRBX) as RTK with RTKLIB, which
knows nothing of mockgps.

Usage: rtklib_rtk_oracle.py ROVER [--systems=G,E,C] [--frequencies=2] BASE BX BY BZ RX RY RZ
BX BY BZ is the base's antenna (ECEF, meters), given to rnx2rtkp as the base position; RX RY RZ
the rover's emitted position. convbin turns each capture into RINEX observations (the rover's
navigation file too); rnx2rtkp solves the rover kinematically against the base, as the README
shows it: GPS L1 unless --systems and --frequencies say otherwise (RINEX letters; 2 is L1+L2,
E1+E5b, B1I+B2I), its defaults otherwise (continuous ambiguity resolution, ratio test 3, 15
degree mask). Prints one JSON object: the epochs solved, how many with the ambiguities fixed
(Q=1), the first fixed epoch's index, and for the fixed epochs the 3D error from RX RY RZ (mean,
max) and the baseline's length error; rnx2rtkp's output when it solved nothing.
"""
import json
import math
import os
import subprocess
import sys
import tempfile

from rtklib_capture import readable_copy


SYSTEM_BITS = {"G": 1, "R": 4, "E": 8, "C": 32}


def run(arguments, folder):
    return subprocess.run(arguments, cwd=folder, capture_output=True, text=True, timeout=120)


def main():
    options = dict(argument[2:].split("=", 1) for argument in sys.argv[1:]
                   if argument.startswith("--"))
    arguments = [sys.argv[0]] + [argument for argument in sys.argv[1:]
                                 if not argument.startswith("--")]
    rover_path, base_path = os.path.abspath(arguments[1]), os.path.abspath(arguments[2])
    base = [float(value) for value in arguments[3:6]]
    truth = [float(value) for value in arguments[6:9]]
    systems, frequencies = options.get("systems", "G"), options.get("frequencies", "1")
    result = {}
    with tempfile.TemporaryDirectory() as folder:
        rover_obs, base_obs = os.path.join(folder, "rover.obs"), os.path.join(folder, "base.obs")
        navigation, solution = os.path.join(folder, "rover.nav"), os.path.join(folder, "rtk.pos")
        for source, observations, extra in ((rover_path, rover_obs, ["-n", navigation]),
                                            (base_path, base_obs, [])):
            converted = run(["convbin", "-r", "ubx", "-o", observations] + extra
                            + [readable_copy(source, folder)], folder)
            result.setdefault("convbin", []).append(converted.returncode)
        # The README's command: kinematic, L1, GPS (or the systems and frequencies asked), the
        # base at X Y Z, ECEF output (-e); the rest rnx2rtkp's defaults (continuous ambiguity
        # resolution, ratio 3, 15 degree mask). The systems go in a configuration file: b34's
        # `-sys` falls through its switch, so that `-sys G` turns on every system.
        options = os.path.join(folder, "rtk.conf")
        with open(options, "w") as file:
            file.write("pos1-navsys=%d\n" % sum(SYSTEM_BITS[letter] for letter in systems.split(",")))
        solved = run(["rnx2rtkp", "-k", options, "-p", "2", "-f", frequencies, "-e", "-r"]
                     + ["%.4f" % value for value in base]
                     + ["-o", solution, rover_obs, base_obs, navigation], folder)
        result["rnx2rtkp"] = solved.returncode
        epochs = []
        if os.path.exists(solution):
            with open(solution) as file:
                for line in file:
                    if line.startswith("%") or not line.strip():
                        continue
                    fields = line.split()
                    epochs.append(([float(value) for value in fields[2:5]], int(fields[5])))
        if not epochs:
            result["rnx2rtkpOutput"] = (solved.stdout + solved.stderr)[-2000:]
    fixed = [position for position, quality in epochs if quality == 1]
    result["solutions"] = len(epochs)
    result["fixed"] = len(fixed)
    result["firstFixed"] = next((index for index, (_, quality) in enumerate(epochs)
                                 if quality == 1), None)
    if fixed:
        errors = [math.dist(position, truth) for position in fixed]
        result["meanError"] = sum(errors) / len(errors)
        result["maxError"] = max(errors)
        configured = math.dist(truth, base)
        result["baselineError"] = max(abs(math.dist(position, base) - configured)
                                      for position in fixed)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
