#!/usr/bin/env python3
"""Cadence benchmark: mockgps, gpsfake and nmeasim side by side, each read by epoch_timing.py.

For each rate, a floor writer (floor_writer.py: one write of a whole epoch of mockgps's sentences
on each deadline of an absolute sleep) and then each tool run alone for SECONDS while
epoch_timing.py, beside this script, reads its tty; CPU comes from /proc/PID/task/*/schedstat over
the same window and the peak RSS from VmHWM. Prints a table, each tool's deviation as a multiple of
the floor's (what the machine and the reader add), and the ratios of the others to mockgps.
"""
import argparse
import json
import os
import subprocess
import sys
import time

LINES_PER_EPOCH = 9  # RMC VTG GGA GSA GSV GSV GSV GLL ZDA
HERE = os.path.dirname(os.path.abspath(__file__))
READER = os.path.join(HERE, "epoch_timing.py")


def cpu_seconds(pid):
    """CPU time of every thread of the process, in seconds, from schedstat (nanoseconds)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass  # a thread that ended meanwhile
    return total / 1e9


def peak_rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def wait_for(path, seconds=15):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if os.path.exists(path):
            return True
        time.sleep(0.05)
    return False


def stop(process):
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def measure(args, label, rate, process, device, measured_pid):
    out = os.path.join(args.out, f"{label}-{rate:g}hz.json")
    time.sleep(1.0)  # let it settle
    cpu_start = cpu_seconds(measured_pid)
    started = time.monotonic()
    subprocess.run(
        [sys.executable, READER, device, "--seconds", str(args.seconds),
         "--nominal", str(1.0 / rate), "--label", label, "--out", out],
        check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    window = time.monotonic() - started
    cpu = cpu_seconds(measured_pid) - cpu_start
    rss = peak_rss_kb(measured_pid)
    stop(process)
    with open(out) as f:
        summary = json.load(f)
    deviation = summary.get("deviation_s", {})
    return {
        "tool": label, "rate": rate, "epochs": summary.get("epochs", 0),
        "bad_checksums": summary.get("bad_checksums", 0),
        "reader": summary.get("scheduling", "?"),
        "median_ms": deviation.get("median", float("nan")) * 1000,
        "p99_ms": deviation.get("p99", float("nan")) * 1000,
        "max_ms": deviation.get("max", float("nan")) * 1000,
        "cpu_per_min": cpu / window * 60, "rss_mb": rss / 1024,
    }


def run_mockgps(args, rate):
    link = os.path.join(args.out, "ttyMOCKGPS")
    baud = "9600" if rate <= 1 else "115200"
    process = subprocess.Popen(
        [args.binary, "run", "--link", link, "--rate", str(rate), "--baud", baud, "--quiet"],
        stdout=subprocess.DEVNULL)
    if not wait_for(link):
        raise SystemExit("mockgps did not start")
    return measure(args, "mockgps", rate, process, link, process.pid)


def capture_log(args):
    """A log of mockgps's own sentences, for gpsfake to replay."""
    link = os.path.join(args.out, "ttyCAPTURE")
    log = os.path.join(args.out, "capture.log")
    process = subprocess.Popen(
        [args.binary, "run", "--link", link, "--rate", "10", "--baud", "0", "--quiet"],
        stdout=subprocess.DEVNULL)
    wait_for(link)
    fd = os.open(link, os.O_RDONLY | os.O_NOCTTY)
    data, deadline = b"", time.time() + 6
    while time.time() < deadline:
        data += os.read(fd, 65536)
    os.close(fd)
    stop(process)
    lines = [l for l in data.split(b"\r\n") if l.startswith(b"$")]
    start = next(i for i, l in enumerate(lines) if l[3:6] == b"RMC")
    with open(log, "wb") as f:
        # No "#Serial:" header: gpsd 3.22's gpsfake fails to parse it under Python 3.
        f.write(b"# Name: mockgps capture for the cadence benchmark\n")
        f.write(b"".join(l + b"\r\n" for l in lines[start:]))
    return log


def run_floor(args, rate, log):
    link = os.path.join(args.out, f"ttyFLOOR{rate:g}")
    stats = os.path.join(args.out, f"floor-writer-{rate:g}hz.json")
    process = subprocess.Popen(
        [sys.executable, os.path.join(HERE, "floor_writer.py"), str(rate), log, link, stats])
    if not wait_for(link):
        stop(process)
        raise SystemExit("the floor writer did not start")
    row = measure(args, "floor", rate, process, link, process.pid)
    wait_for(stats, 2)
    try:
        with open(stats) as f:
            row["writer_late_ms"] = json.load(f)["late_after_deadline_ms"]
    except (OSError, ValueError, KeyError):
        pass
    return row


def run_gpsfake(args, rate, log):
    path_file = os.path.join(args.out, f"gpsfake-{rate:g}.path")
    standin = os.path.join(HERE, "gpsd_standin.py")
    cycle = 1.0 / (rate * LINES_PER_EPOCH)
    process = subprocess.Popen(
        ["gpsfake", "-q", "-n", "-c", f"{cycle:.6f}", "-P", str(args.port),
         "-m", f"{sys.executable} {standin} {path_file}", log],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not wait_for(path_file):
        stop(process)
        raise SystemExit("gpsfake did not add its PTY")
    with open(path_file) as f:
        device = f.read().strip()
    return measure(args, "gpsfake", rate, process, device, process.pid)


def run_nmeasim(args, rate):
    path_file = os.path.join(args.out, f"nmeasim-{rate:g}.path")
    helper = os.path.join(HERE, "nmeasim_pty.py")
    process = subprocess.Popen([sys.executable, helper, str(rate), path_file])
    if not wait_for(path_file):
        raise SystemExit("nmeasim did not start")
    with open(path_file) as f:
        device = f.read().strip()
    return measure(args, "nmeasim", rate, process, device, process.pid)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--out", required=True)
    parser.add_argument("--port", type=int, default=29471)
    parser.add_argument("--rates", default="1,10")
    args = parser.parse_args()
    log = capture_log(args)
    rows = []
    for rate in [float(r) for r in args.rates.split(",")]:
        rows.append(run_floor(args, rate, log))
        rows.append(run_mockgps(args, rate))
        rows.append(run_gpsfake(args, rate, log))
        rows.append(run_nmeasim(args, rate))
    header = (f"{'tool':8} {'rate':>6} {'epochs':>6} {'bad cs':>6} {'dev median':>11} "
              f"{'dev p99':>9} {'dev max':>9} {'CPU s/min':>10} {'peak RSS':>9}")
    readers = sorted({r["reader"] for r in rows})
    print(f"\nepoch-interval deviation from nominal, {args.seconds:g} s per run "
          f"(mockgps at 9600 baud at 1 Hz, 115200 above); reader under {', '.join(readers)}")
    print(header)
    for r in rows:
        print(f"{r['tool']:8} {r['rate']:>4g}Hz {r['epochs']:>6} {r['bad_checksums']:>6} "
              f"{r['median_ms']:>8.3f} ms {r['p99_ms']:>6.3f} ms {r['max_ms']:>6.3f} ms "
              f"{r['cpu_per_min']:>9.3f}s {r['rss_mb']:>6.1f} MB")

    for r in rows:
        late = r.get("writer_late_ms")
        if late:
            print(f"  (floor writer at {r['rate']:g} Hz: its write returned {late['median']:.3f} ms "
                  f"after the deadline at the median, {late['p99']:.3f} ms p99, "
                  f"{late['max']:.3f} ms max)")

    def ratio(row, base, key):
        return row[key] / base[key] if base[key] else float("inf")

    print("\ndeviation as a multiple of the floor's at the same rate (1.0: all of it is the "
          "machine's and the reader's):")
    for rate in sorted({r["rate"] for r in rows}):
        floor = next(r for r in rows if r["tool"] == "floor" and r["rate"] == rate)
        for r in rows:
            if r["rate"] == rate and r["tool"] != "floor":
                print(f"  {r['tool']:8} {rate:>4g}Hz  median x{ratio(r, floor, 'median_ms'):.1f}, "
                      f"p99 x{ratio(r, floor, 'p99_ms'):.1f}, max x{ratio(r, floor, 'max_ms'):.1f}")
    print("\nratios to mockgps at the same rate (higher is worse for the other tool):")
    for rate in sorted({r["rate"] for r in rows}):
        base = next(r for r in rows if r["tool"] == "mockgps" and r["rate"] == rate)
        for r in rows:
            if r["rate"] != rate or r["tool"] in ("mockgps", "floor"):
                continue
            print(f"  {r['tool']:8} {rate:>4g}Hz  p99 deviation x{ratio(r, base, 'p99_ms'):.1f}, "
                  f"CPU x{ratio(r, base, 'cpu_per_min'):.1f}, "
                  f"peak RSS x{ratio(r, base, 'rss_mb'):.1f}")
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
