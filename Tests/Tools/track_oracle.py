#!/usr/bin/env python3
"""The independent oracle of the route tests: where a timed GPX track is at given times.

Usage: track_oracle.py TRACK.gpx < reports.jsonl

Reads the track with gpxpy and gpsd's TPV reports (JSON lines with time, lat, lon, speed) from
standard input. For each report it interpolates the track at the report's time along the
WGS-84 geodesic (GeographicLib) between the two points that bracket it, and prints one JSON
object: the number of reports compared, the largest distance from the expected position in
meters, the largest speed error in m/s (expected: the bracketing segment's length over its
duration), the first and last times compared, and the reports it could not compare.
"""
import json
import sys
from datetime import datetime, timezone

import gpxpy
from geographiclib.geodesic import Geodesic


def parse_time(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        gpx = gpxpy.parse(handle)
    points = [p for t in gpx.tracks for s in t.segments for p in s.points if p.time is not None]
    times = [p.time.replace(tzinfo=p.time.tzinfo or timezone.utc).timestamp() for p in points]
    geodesic = Geodesic.WGS84
    compared, worst_distance, worst_speed, first, last = 0, 0.0, 0.0, None, None
    skipped = []
    for line in sys.stdin:
        report = json.loads(line)
        if report.get("class") != "TPV" or "lat" not in report or "time" not in report:
            skipped.append(report)
            continue
        t = parse_time(report["time"])
        # At a point's own time the receiver is at the point and moves on along the segment
        # that leaves it: that segment's speed is the one expected.
        index = next((i for i in range(1, len(times)) if times[i] > t), None)
        if index is None or t < times[0]:
            skipped.append(report)
            continue
        a, b = points[index - 1], points[index]
        duration = times[index] - times[index - 1]
        fraction = 0.0 if duration <= 0 else (t - times[index - 1]) / duration
        segment = geodesic.InverseLine(a.latitude, a.longitude, b.latitude, b.longitude)
        expected = segment.Position(segment.s13 * fraction)
        error = geodesic.Inverse(expected["lat2"], expected["lon2"], report["lat"], report["lon"])
        worst_distance = max(worst_distance, error["s12"])
        if "speed" in report and duration > 0:
            worst_speed = max(worst_speed, abs(report["speed"] - segment.s13 / duration))
        compared += 1
        first = first or report["time"]
        last = report["time"]
    print(json.dumps({"compared": compared, "max_distance_m": worst_distance,
                      "max_speed_error_mps": worst_speed, "first": first, "last": last,
                      "skipped": skipped}))


if __name__ == "__main__":
    main()
