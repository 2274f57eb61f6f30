#!/usr/bin/env python3
"""What the browser panel costs: scripts/bench-panel's harness.

Usage: panel.py --binary MOCKGPS --seconds S --out DIR [--rate HZ]

Three runs of `mockgps run` at RATE Hz (default 10) and 115200 baud, each with a reader of the
device (cat) so that every epoch is encoded and sent: without --panel; with --panel 0 and no
client; with --panel 0 and one event stream read by curl (GET /api/events, as a browser's
EventSource). For each: mockgps's CPU over S seconds after a 3 s warm-up, in % of one core, and
its resident memory; then the differences to the first row, and the floor row: one clock tick
over S seconds, the least CPU this sampling can see (a difference below it is nothing measured).
Python 3 standard library only.
"""
import argparse
import os
import re
import subprocess
import sys
import time

TICKS = os.sysconf("SC_CLK_TCK")
WARMUP_SECONDS = 3


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def run(args, label, panel, client):
    link = os.path.join(args.out, f"gps-{label.replace(' ', '-')}")
    command = [args.binary, "run", "--link", link, "--no-control", "--rate", str(args.rate),
               "--baud", "115200", "--quiet"]
    if panel:
        command += ["--panel", "0"]
    mockgps = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
    helpers = []
    try:
        url = None
        deadline = time.monotonic() + 10
        while not os.path.exists(link) and time.monotonic() < deadline:
            time.sleep(0.05)
        if panel:
            line = mockgps.stderr.readline()
            match = re.search(r"panel at (http://\S+)/\?token=([0-9a-f]{32})", line)
            if not match:
                sys.exit(f"panel.py: no panel URL from mockgps: {line!r}")
            url = match.group(1), match.group(2)
        helpers.append(subprocess.Popen(["cat", link], stdout=subprocess.DEVNULL))
        if client:
            base, token = url
            helpers.append(subprocess.Popen(
                ["curl", "-sN", f"{base}/api/events?device=0&token={token}"],
                stdout=subprocess.DEVNULL))
        time.sleep(WARMUP_SECONDS)
        start, cpu_start = time.monotonic(), cpu_seconds(mockgps.pid)
        time.sleep(args.seconds)
        elapsed = time.monotonic() - start
        cpu = 100 * (cpu_seconds(mockgps.pid) - cpu_start) / elapsed
        return label, cpu, rss_mb(mockgps.pid)
    finally:
        for helper in helpers:
            helper.terminate()
            helper.wait()
        mockgps.terminate()
        mockgps.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--rate", type=float, default=10)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rows = [
        run(args, "no --panel", panel=False, client=False),
        run(args, "--panel, no client", panel=True, client=False),
        run(args, "--panel, one event stream", panel=True, client=True),
    ]
    base = rows[0][1]
    print(f"mockgps at {args.rate:g} Hz, 115200 baud, a reader on the tty; "
          f"{args.seconds:g} s after a {WARMUP_SECONDS} s warm-up")
    print(f"{'run':<28} {'CPU % of a core':>16} {'added':>8} {'RSS MB':>8}")
    for label, cpu, rss in rows:
        added = "" if label == rows[0][0] else f"{cpu - base:+.2f}"
        print(f"{label:<28} {cpu:>16.2f} {added:>8} {rss:>8.1f}")
    print(f"{'floor: one clock tick':<28} {100 / TICKS / args.seconds:>16.2f}")


if __name__ == "__main__":
    main()
