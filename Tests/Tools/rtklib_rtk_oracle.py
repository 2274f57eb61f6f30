#!/usr/bin/env python3
"""Solves a rover's and a base's UBX captures (RXM-RAWX, RXM-SFRBX) as RTK with RTKLIB, which
knows nothing of mockgps.

Usage: rtklib_rtk_oracle.py ROVER BASE BX BY BZ RX RY RZ
BX BY BZ is the base's antenna (ECEF, meters), given to rnx2rtkp as the base position; RX RY RZ
the rover's emitted position. convbin turns each capture into RINEX observations (the rover's
navigation file too); rnx2rtkp solves the rover kinematically against the base, as the README
shows it: GPS L1, its defaults otherwise (continuous ambiguity resolution, ratio test 3, 15
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


def run(arguments, folder):
    return subprocess.run(arguments, cwd=folder, capture_output=True, text=True, timeout=120)


def main():
    rover_path, base_path = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    base = [float(value) for value in sys.argv[3:6]]
    truth = [float(value) for value in sys.argv[6:9]]
    result = {}
    with tempfile.TemporaryDirectory() as folder:
        rover_obs, base_obs = os.path.join(folder, "rover.obs"), os.path.join(folder, "base.obs")
        navigation, solution = os.path.join(folder, "rover.nav"), os.path.join(folder, "rtk.pos")
        for source, observations, extra in ((rover_path, rover_obs, ["-n", navigation]),
                                            (base_path, base_obs, [])):
            converted = run(["convbin", "-r", "ubx", "-o", observations] + extra + [source],
                            folder)
            result.setdefault("convbin", []).append(converted.returncode)
        # The README's command: kinematic, L1, GPS, the base at X Y Z, ECEF output (-e); the
        # rest rnx2rtkp's defaults (continuous ambiguity resolution, ratio 3, 15 degree mask).
        solved = run(["rnx2rtkp", "-p", "2", "-f", "1", "-sys", "G", "-e", "-r"]
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
