#!/usr/bin/env python3
"""The observations RTKLIB's convbin reads in an RTCM 3 stream, as JSON.

Usage: rtklib_observations.py FILE "YYYY/MM/DD hh:mm:ss"
The time (GPS, within half a week of the stream's) lets convbin resolve the week MSM time tags
omit (`-tr`). convbin writes RINEX 3 observations; this prints {"convbin": returncode,
"types": {"R": ["C1C", ...]}, "epochs": [{"time": "2026 01 01 00 00 18.0000000",
"satellites": {"R02": {"C1C": 21854269.414, ...}}}]}, a blank field left out.
The process gives up after 60 s (SIGALRM), so a hang cannot stall the test that runs it.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile

signal.alarm(60)


def read_rinex(path):
    types, epochs, header = {}, [], True
    with open(path) as file:
        for line in file:
            if header:
                if "SYS / # / OBS TYPES" in line:
                    types[line[0]] = line[7:60].split()
                header = "END OF HEADER" not in line
                continue
            if line.startswith(">"):
                epochs.append({"time": line[2:29], "satellites": {}})
                continue
            satellite, values = line[:3], {}
            for index, name in enumerate(types.get(line[0], [])):
                field = line[3 + 16 * index:3 + 16 * index + 14].strip()
                if field:
                    values[name] = float(field)
            epochs[-1]["satellites"][satellite] = values
    return types, epochs


def main():
    path, time = os.path.abspath(sys.argv[1]), sys.argv[2]
    with tempfile.TemporaryDirectory() as folder:
        observations = os.path.join(folder, "stream.obs")
        converted = subprocess.run(
            ["convbin", "-r", "rtcm3", "-tr", time, "-v", "3.04", "-od", "-os", "-o",
             observations, path], cwd=folder, capture_output=True, text=True, timeout=50)
        result = {"convbin": converted.returncode}
        if os.path.exists(observations):
            result["types"], result["epochs"] = read_rinex(observations)
        else:
            result["convbinOutput"] = (converted.stdout + converted.stderr)[-2000:]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
