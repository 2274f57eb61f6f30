#!/usr/bin/env python3
"""Route benchmark: loading rates beside gpxpy and the floor, and the cost of an epoch.

Builds GPX files of N points from a real track (its points repeated, each lap shifted in time
and a little in space so that times keep increasing), then times, best of RUNS:
  - floor/read: reading the file's bytes (what any reader pays);
  - floor/xmllint: libxml2's streaming reader alone (`xmllint --stream --noout`), when installed;
  - mockgps: `RouteFile.load`, the reader `run` and `check` use, timed in the harness's own
    process (`mockgps-bench load FILE RUNS`), as gpxpy is; and `mockgps check FILE`, a whole
    process that also starts up and sums the track's length;
  - gpxpy: `gpxpy.parse` in this process (its interpreter start is not counted).
It prints points per second and the ratios, and the peak resident memory of `mockgps check` on
1,000,000 points beside the bytes the points themselves take (40 bytes each). Then, for the
epochs, the harness (`mockgps-bench epochs SOURCE N`) computes N epochs (scene, encoder, bytes)
from a fixed position and from the track; callgrind counts its instructions at two values of N,
and the difference over the difference of N is the cost of one epoch without the start-up. The
motion's share is (route - fixed) / route.
"""
import argparse
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

NS = {"g": "http://www.topografix.com/GPX/1/1"}


def track_points(path):
    root = ET.parse(path).getroot()
    namespace = root.tag.split("}")[0].strip("{")
    points = []
    for point in root.iter(f"{{{namespace}}}trkpt"):
        time_element = point.find(f"{{{namespace}}}time")
        elevation = point.find(f"{{{namespace}}}ele")
        points.append((float(point.get("lat")), float(point.get("lon")),
                       float(elevation.text) if elevation is not None else 0.0,
                       time_element.text if time_element is not None else None))
    return points


def write_gpx(points, count, path):
    from datetime import datetime, timedelta
    start = datetime.fromisoformat(points[0][3].replace("Z", "+00:00"))
    span = datetime.fromisoformat(points[-1][3].replace("Z", "+00:00")) - start
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="bench" '
                'xmlns="http://www.topografix.com/GPX/1/1">\n<trk><name>bench</name><trkseg>\n')
        written, lap = 0, 0
        while written < count:
            shift = (span + timedelta(seconds=1)) * lap
            for lat, lon, ele, stamp in points:
                if written == count:
                    break
                moment = datetime.fromisoformat(stamp.replace("Z", "+00:00")) + shift
                f.write(f'<trkpt lat="{lat + lap * 1e-5:.7f}" lon="{lon:.7f}"><ele>{ele:.1f}</ele>'
                        f'<time>{moment.strftime("%Y-%m-%dT%H:%M:%SZ")}</time></trkpt>\n')
                written += 1
            lap += 1
        f.write("</trkseg></trk>\n</gpx>\n")


def best_of(runs, action):
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        timings.append(time.perf_counter() - start)
    return min(timings)


def run_quiet(command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def read_bytes(path):
    with open(path, "rb") as f:
        while f.read(1 << 20):
            pass


def peak_rss_of(command):
    """Peak resident memory of one child in KiB, from its own rusage (RUSAGE_CHILDREN would
    give the largest of every child so far)."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{command} exited with {process.returncode}")
    return usage.ru_maxrss


def callgrind_instructions(command, out):
    log = os.path.join(out, "callgrind.out.%p")
    result = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={log}"]
                            + command, capture_output=True, text=True, check=True)
    for line in result.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[1].strip())
    raise RuntimeError("no instruction count in callgrind's output:\n" + result.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--harness", required=True)
    parser.add_argument("--track", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    import gpxpy

    points = track_points(args.track)
    count = 100_000
    big = os.path.join(args.out, "100k.gpx")
    write_gpx(points, count, big)
    print(f"loading {count} points ({os.path.getsize(big) / 1e6:.1f} MB GPX), best of {args.runs}")
    rows = [("floor: read the bytes", best_of(args.runs, lambda: read_bytes(big)))]
    xmllint = "/usr/bin/xmllint"
    if os.path.exists(xmllint):
        rows.append(("floor: xmllint --stream", best_of(
            args.runs, lambda: run_quiet([xmllint, "--stream", "--noout", big]))))
    loaded = subprocess.run([args.harness, "load", big, str(args.runs)], capture_output=True,
                            text=True, check=True).stdout.split()
    mockgps = float(loaded[loaded.index("best") + 1])
    rows.append(("mockgps RouteFile.load", mockgps))
    rows.append(("mockgps check (process)", best_of(
        args.runs, lambda: run_quiet([args.binary, "check", big]))))

    def parse_with_gpxpy():
        with open(big, encoding="utf-8") as f:
            gpxpy.parse(f)
    gpxpy_seconds = best_of(max(1, args.runs // 2), parse_with_gpxpy)
    rows.append((f"gpxpy {gpxpy.__version__}", gpxpy_seconds))
    print(f"{'reader':28} {'seconds':>9} {'points/s':>12} {'vs mockgps':>11}")
    for name, seconds in rows:
        print(f"{name:28} {seconds:9.4f} {count / seconds:12,.0f} {mockgps / seconds:10.2f}x")
    print(f"mockgps loads {gpxpy_seconds / mockgps:.1f} times as fast as gpxpy")

    million = os.path.join(args.out, "1m.gpx")
    write_gpx(points, 1_000_000, million)
    rss = peak_rss_of([args.binary, "check", million])
    baseline = peak_rss_of([args.binary, "check", args.track])
    print(f"peak RSS of mockgps check: {rss / 1024:.1f} MiB for 1,000,000 points "
          f"({baseline / 1024:.1f} MiB for {len(points)}); the points take "
          f"{40 * 1_000_000 / 2**20:.1f} MiB")

    print("\nper epoch (scene, NMEA encoding, bytes), callgrind instructions and wall time")
    small, large = 200, 2200
    results = {}
    for source in ["fixed", args.track]:
        low = callgrind_instructions([args.harness, "epochs", source, str(small)], args.out)
        high = callgrind_instructions([args.harness, "epochs", source, str(large)], args.out)
        per_epoch = (high - low) / (large - small)
        timed = subprocess.run([args.harness, "epochs", source, "200000"], capture_output=True,
                               text=True, check=True).stdout.split()
        microseconds = float(timed[timed.index("us/epoch") - 1])
        results[source] = (per_epoch, microseconds)
        name = "fixed position" if source == "fixed" else os.path.basename(source)
        print(f"{name:28} {per_epoch:12,.0f} instructions {microseconds:8.2f} us")
    fixed, route = results["fixed"], results[args.track]
    print(f"the motion adds {(route[0] - fixed[0]) / fixed[0] * 100:.2f} % of an epoch's "
          f"instructions ({(route[1] - fixed[1]) / fixed[1] * 100:.1f} % of its wall time)")


if __name__ == "__main__":
    sys.exit(main())
