#!/usr/bin/env python3
"""The soak of scripts/soak: many receivers in one process for a while, then three checks.

Usage: soak.py --binary MOCKGPS --minutes M --out DIR [--devices 100] [--time-scale 60]

Starts one `mockgps run --config` with DEVICES devices at 1 Hz of simulated time and the given
time scale (60 epochs a second each), every device read by many.c's reader (one descriptor per
device, one process). Every 10 s it samples mockgps's resident memory (VmRSS) and open
descriptors (/proc/PID/fd). At the end it sends SIGTERM and checks:
- every device's summary accounts for every epoch of the span: sent + without a client +
  dropped for unread data + skipped late + cut short = the span times the rate (within the
  0.25 s the span is known to), and at most a quarter of them late (the share is printed);
- the resident memory is flat: every sample of the last third within 5 % (and 1 MB) of the
  first sample after the warm-up (a third of the run, at most 60 s);
- no descriptor leaks: the count is the same in every sample after the warm-up.
Exits 0, or 1 with a one-line reason. Python 3 standard library only.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from many import status, wait_for_lines  # noqa: E402

LATE_SHARE_LIMIT = 0.25
SUMMARY = re.compile(
    r"mockgps: (\S+): sent (\d+) epochs to \d+ client connections, (\d+) without a client; "
    r"(\d+) dropped for unread data, (\d+) late, (\d+) cut short")


def fail(reason):
    print(f"soak: FAIL: {reason}")
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--minutes", type=float, required=True)
    parser.add_argument("--devices", type=int, default=100)
    parser.add_argument("--time-scale", type=float, default=60)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    reader_binary = os.path.join(args.out, "many")
    subprocess.run(["cc", "-O2", "-o", reader_binary, os.path.join(HERE, "many.c")], check=True)
    links = [os.path.join(args.out, f"gps{i}") for i in range(args.devices)]
    config = os.path.join(args.out, "soak.json")
    with open(config, "w") as f:
        f.write('{"devices": [\n' + ",\n".join(
            f'  {{"link": "{link}", "position": [{40 + i * 0.01:.2f}, {i * 0.01:.2f}], '
            f'"time-scale": {args.time_scale:g}, "baud": 115200}}'
            for i, link in enumerate(links)) + "\n]}\n")
    errors_path = os.path.join(args.out, "mockgps.err")
    process = subprocess.Popen([args.binary, "run", "--config", config], stdout=subprocess.PIPE,
                               stderr=open(errors_path, "w"), text=True)
    seconds = args.minutes * 60
    try:
        if not wait_for_lines(process, args.devices, 120):
            fail(f"mockgps did not start its {args.devices} devices (see {errors_path})")
        started = time.monotonic()
        reader = subprocess.Popen(
            [reader_binary, "read", str(seconds), str(args.time_scale), "0"] + links,
            stdout=subprocess.DEVNULL)
        samples = []  # (seconds since start, VmRSS kB, descriptors)
        while time.monotonic() - started < seconds:
            time.sleep(min(10, max(0, seconds - (time.monotonic() - started))))
            if process.poll() is not None:
                fail(f"mockgps exited early with {process.returncode} (see {errors_path})")
            samples.append((time.monotonic() - started, int(status(process.pid)["VmRSS"]),
                            len(os.listdir(f"/proc/{process.pid}/fd"))))
        process.send_signal(signal.SIGTERM)
        stopped = time.monotonic()
        span = stopped - started
        process.wait(timeout=60)
        reader.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    with open(errors_path) as f:
        summaries = {m.group(1): [int(g) for g in m.groups()[1:]] for m in SUMMARY.finditer(f.read())}
    if process.returncode != 0:
        fail(f"mockgps exited with {process.returncode} (see {errors_path})")
    if len(summaries) != args.devices:
        fail(f"{len(summaries)} device summaries for {args.devices} devices (see {errors_path})")
    expected = span * args.time_scale
    # The devices start one after another over a fraction of a second: the span of each is
    # known to a quarter second.
    tolerance = 0.25 * args.time_scale + 1
    # Every epoch due is accounted for exactly once: sent, sent without a client, dropped for
    # unread data, skipped late or cut short. Late epochs are reported as a share, and fail the
    # soak only past LATE_SHARE_LIMIT: on a 2-core VM one scheduler thread serving 6,000
    # epochs a second that all fall on the same instants starts a few per cent of them more
    # than half a wire period (8 ms) late; a share past the limit means it cannot keep up.
    late_total = 0
    for link, (sent, without, overrun, late, cut) in summaries.items():
        counted = sent + without + overrun + late + cut
        late_total += late + cut
        if (late + cut) > LATE_SHARE_LIMIT * max(counted, 1):
            fail(f"{link}: {late} epochs late and {cut} cut short of {counted}")
        if abs(counted - expected) > tolerance:
            fail(f"{link}: {counted} epochs ({sent} sent, {without} without a client, {overrun} "
                 f"dropped, {late} late, {cut} cut short) for {expected:.0f} in {span:.1f} s")
    warmup = min(60, seconds / 3)
    steady = [s for s in samples if s[0] >= warmup]
    if len(steady) < 2:
        fail(f"too few samples after the {warmup:.0f} s warm-up; run longer")
    base_time, base_rss, base_fds = steady[0]
    for at, rss, fds in steady:
        if fds != base_fds:
            fail(f"descriptors went from {base_fds} at {base_time:.0f} s to {fds} at {at:.0f} s")
    last_third = [s for s in steady if s[0] >= seconds * 2 / 3] or steady[-1:]
    for at, rss, _ in last_third:
        if rss > base_rss * 1.05 + 1024:
            fail(f"RSS grew from {base_rss / 1024:.1f} MB at {base_time:.0f} s to "
                 f"{rss / 1024:.1f} MB at {at:.0f} s")
    sent = sum(s[0] for s in summaries.values())
    share = 100 * late_total / max(1, late_total + sent)
    print(f"soak: ok: {args.devices} devices for {span:.0f} s at time scale {args.time_scale:g}, "
          f"{sent} epochs sent, none lost, {late_total} ({share:.1f} %) skipped late; RSS {base_rss / 1024:.1f} -> "
          f"{samples[-1][1] / 1024:.1f} MB, {base_fds} descriptors throughout")


if __name__ == "__main__":
    main()
