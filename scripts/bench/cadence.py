#!/usr/bin/env python3
"""Cadence benchmark: mockgps, gpsfake and nmeasim side by side, each read by epoch_timing.py.

For each rate, a floor writer (floor_writer.py: one write of a whole epoch of mockgps's sentences
on each deadline of an absolute sleep), at a rate mockgps paces at its baud a paced floor
(paced_floor.c: the same sentences written one a write at mockgps's line times, the least those
writes cost the machine), and then each tool, one at a time, while epoch_timing.py, beside this
script, reads its tty; CPU comes from /proc/PID/task/*/schedstat over the same window and the peak
RSS from VmHWM (of a window: a row's peak is its windows' highest). A row's SECONDS are split into
--rounds windows in which the rows of a rate take turns, each round starting with the next row,
and each row pools its windows' intervals and CPU, so that the VM's drift within minutes falls on
every row alike. Prints a table, each tool's deviation as a multiple of the floor's (what the
machine and the reader add), the round-by-round ratios of mockgps's p99 to its floor's, and the
ratios of the others to mockgps.
"""
import argparse
import functools
import itertools
import json
import os
import shutil
import subprocess
import sys
import time

from epoch_timing import percentile
from arguments import positive

# The fewest epochs a window may hold: the reader leaves out its first and last, which may be
# partial, and an interval needs two epochs.
MIN_EPOCHS_A_WINDOW = 5
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


def remove_stale(*paths):
    """Removes what an earlier round's writer left (a link, its stats), so that waiting for them
    waits for this round's."""
    for path in paths:
        if os.path.lexists(path):
            os.unlink(path)


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
    """One window of a row: the reader's intervals, the process's CPU over the window, its peak
    RSS; pooled with the row's other windows by `pooled`."""
    out = os.path.join(args.out, f"{label}-{rate:g}hz-{next(WINDOW_NUMBERS)}.json")
    time.sleep(1.0)  # let it settle
    cpu_start = cpu_seconds(measured_pid)
    started = time.monotonic()
    subprocess.run(
        [sys.executable, READER, device, "--seconds", str(args.window),
         "--nominal", str(1.0 / rate), "--label", label, "--out", out],
        check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    window = time.monotonic() - started
    cpu = cpu_seconds(measured_pid) - cpu_start
    rss = peak_rss_kb(measured_pid)
    stop(process)
    try:
        with open(out) as f:
            summary = json.load(f)
    except (OSError, ValueError):
        raise SystemExit(f"bench-cadence: {label} at {rate:g} Hz: the reader wrote no summary "
                         f"to {out}")
    return {
        "tool": label, "rate": rate, "epochs": summary.get("epochs", 0),
        "bad_checksums": summary.get("bad_checksums", 0),
        "reader": summary.get("scheduling", "?"),
        "intervals_s": summary.get("intervals_s", []),
        "p99_ms": summary.get("deviation_s", {}).get("p99", float("nan")) * 1000,
        "cpu_s": cpu, "window_s": window, "rss_mb": rss / 1024,
    }


WINDOW_NUMBERS = itertools.count(1)


def pooled(windows):
    """A row from its windows of all rounds: the intervals' deviations, epochs and CPU pooled,
    the peak RSS the highest, and each window's own p99 kept (`rounds_p99_ms`)."""
    first = windows[0]
    nominal = 1.0 / first["rate"]
    deviations = [abs(x - nominal) for w in windows for x in w["intervals_s"]]
    row = {
        "tool": first["tool"], "rate": first["rate"], "rounds": len(windows),
        "epochs": sum(w["epochs"] for w in windows), "intervals": len(deviations),
        "bad_checksums": sum(w["bad_checksums"] for w in windows), "reader": first["reader"],
        "median_ms": percentile(deviations, 50) * 1000,
        "p99_ms": percentile(deviations, 99) * 1000,
        "max_ms": max(deviations, default=float("nan")) * 1000,
        "cpu_per_min": sum(w["cpu_s"] for w in windows) / sum(w["window_s"] for w in windows) * 60,
        "rss_mb": max(w["rss_mb"] for w in windows),
        "rounds_p99_ms": [w["p99_ms"] for w in windows],
    }
    late = sorted(x for w in windows for x in w.get("writer_late_ns", []))
    if late:
        row["writer_late_ms"] = {"median": percentile(late, 50) / 1e6,
                                 "p99": percentile(late, 99) / 1e6, "max": late[-1] / 1e6}
    writes = [w["writes"] for w in windows if "writes" in w]
    if writes:
        row["writes_per_epoch"] = sum(writes) / max(row["epochs"], 1)
        row["sentences_per_epoch"] = first.get("sentences_per_epoch")
    return row


def take_turns(args, makers):
    """Runs each of `makers` (label, function returning one window) once a round, each round
    starting with the next, and returns the rows pooled, in the order of `makers`."""
    windows = {label: [] for label, _ in makers}
    for round_index in range(args.rounds):
        start = round_index % len(makers)
        for label, make in makers[start:] + makers[:start]:
            windows[label].append(make())
    return [pooled(windows[label]) for label, _ in makers]


# Who a writer runs as, for the rows on rights (`--rights`): a command prefix, and a folder it may
# write its link in. Root takes SCHED_FIFO (mockgps's epoch and I/O threads, the floor writer);
# an ordinary user cannot, unless given CAP_SYS_NICE or an RLIMIT_RTPRIO of at least 10 (what
# systemd's LimitRTPRIO= sets).
NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
RIGHTS = {
    "root": [],
    "user": NOBODY + ["--inh-caps=-all"],
    "user+CAP_SYS_NICE": NOBODY + ["--inh-caps=+sys_nice", "--ambient-caps=+sys_nice"],
    "user+LimitRTPRIO=10": ["prlimit", "--rtprio=10"] + NOBODY + ["--inh-caps=-all"],
}


def writable_folder(args, rights):
    """The output folder for root; for another user, a folder of its own inside it."""
    if not RIGHTS[rights]:
        return args.out
    folder = os.path.join(args.out, rights.replace("+", "-").replace("=", ""))
    os.makedirs(folder, exist_ok=True)
    shutil.chown(folder, "nobody", "nogroup")
    return folder


def mockgps_baud(rate):
    return 9600 if rate <= 1 else 115200


def paces_in_sentences(rate):
    """Whether mockgps writes an epoch at this rate in more than one write, one a sentence: at
    9600 baud each sentence takes more than its 40 ms group with the next; at 115200 baud an
    epoch (43 ms) is one write, its last sentence (ZDA, 3 ms) a sliver joined to the group before,
    as the floor's."""
    return mockgps_baud(rate) < 115200


def run_mockgps(args, rate, baud=None, label="mockgps", rights="root"):
    baud = mockgps_baud(rate) if baud is None else baud
    link = os.path.join(writable_folder(args, rights), "ttyMOCKGPS")
    remove_stale(link)
    process = subprocess.Popen(
        RIGHTS[rights] + [args.binary, "run", "--link", link, "--rate", str(rate), "--baud",
                          str(baud), "--quiet"],
        stdout=subprocess.DEVNULL)
    if not wait_for(link):
        raise SystemExit("mockgps did not start")
    # setpriv and prlimit exec what they run: the process started is mockgps.
    return measure(args, label, rate, process, link, process.pid)


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


def run_writer(args, label, rate, command, link, stats):
    """Runs a floor writer (`command`, which links `link` and writes `stats` when stopped),
    measures it, and returns its row with what it wrote to `stats` (None when nothing)."""
    remove_stale(link, stats)
    process = subprocess.Popen(command)
    if not wait_for(link):
        stop(process)
        raise SystemExit(f"{label}: the writer did not start")
    row = measure(args, label, rate, process, link, process.pid)
    wait_for(stats, 2)
    try:
        with open(stats) as f:
            return row, json.load(f)
    except (OSError, ValueError):
        return row, None


def run_floor(args, rate, log, label="floor", rights="root"):
    folder = writable_folder(args, rights)
    link = os.path.join(folder, f"ttyFLOOR{rate:g}")
    stats = os.path.join(folder, f"floor-writer-{rate:g}hz.json")
    command = RIGHTS[rights] + [sys.executable, os.path.join(HERE, "floor_writer.py"), str(rate),
                                log, link, stats]
    row, written = run_writer(args, label, rate, command, link, stats)
    if written and "late_after_deadline_ns" in written:
        row["writer_late_ns"] = written["late_after_deadline_ns"]
    return row


def run_paced_floor(args, rate, log):
    """The paced floor (paced_floor.c, compiled into the results' folder) at mockgps's baud:
    the same sentences, one a write at mockgps's line times, each after asking the terminal's
    speed as mockgps does (`--asking-speed`)."""
    binary = os.path.join(args.out, "paced_floor")
    if not os.path.exists(binary):
        subprocess.run(["cc", "-O2", "-Wall", "-Wextra", "-o", binary,
                        os.path.join(HERE, "paced_floor.c"), "-lutil"], check=True)
    link = os.path.join(args.out, f"ttyPACED{rate:g}")
    stats = os.path.join(args.out, f"paced-floor-{rate:g}hz.json")
    command = [binary, "--asking-speed", str(rate), str(mockgps_baud(rate)), log, link, stats]
    row, written = run_writer(args, "floor paced", rate, command, link, stats)
    if written and "writes" in written:
        row["writes"] = written["writes"]
        row["sentences_per_epoch"] = written.get("sentences_per_epoch")
    return row


def run_gpsfake(args, rate, log):
    path_file = os.path.join(args.out, f"gpsfake-{rate:g}.path")
    standin = os.path.join(HERE, "gpsd_standin.py")
    cycle = 1.0 / (rate * LINES_PER_EPOCH)
    remove_stale(path_file)
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
    remove_stale(path_file)
    process = subprocess.Popen([sys.executable, helper, str(rate), path_file])
    if not wait_for(path_file):
        raise SystemExit("nmeasim did not start")
    with open(path_file) as f:
        device = f.read().strip()
    return measure(args, "nmeasim", rate, process, device, process.pid)


def with_hogs(count, work):
    """Runs `work()` while `count` busy loops (`yes > /dev/null`) load the machine."""
    hogs = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(count)]
    try:
        return work()
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def run_rights(args, log):
    """At the highest rate, under two CPU hogs: the floor writer and mockgps as root and as an
    ordinary user, without and with what buys real-time priority. Each pair runs back to back
    under the same hogs, the two in turn first (each as often with an even number of rounds; the
    floor once more with an odd one); the pairs take turns as `take_turns` does."""
    rate = max(float(r) for r in args.rates.split(","))
    os.chmod(args.out, 0o755)  # the other user's folders are inside
    allowed = []
    for rights, prefix in RIGHTS.items():
        if subprocess.run(prefix + ["true"], stderr=subprocess.DEVNULL).returncode != 0:
            print(f"bench-cadence: no row for {rights}: '{' '.join(prefix)}' is not allowed here",
                  file=sys.stderr)
        else:
            allowed.append(rights)
    windows = {rights: ([], []) for rights in allowed}
    for round_index in range(args.rounds):
        start = round_index % max(len(allowed), 1)
        for rights in allowed[start:] + allowed[:start]:
            floors, mocks = windows[rights]
            pair = [
                (floors, functools.partial(run_floor, args, rate, log, label=f"floor {rights}",
                                           rights=rights)),
                (mocks, functools.partial(run_mockgps, args, rate, label=f"mockgps {rights}",
                                          rights=rights)),
            ]

            def run_pair(pair=pair[round_index % 2:] + pair[:round_index % 2]):
                for kept, make in pair:
                    kept.append(make())
            with_hogs(2, run_pair)
    rows = []
    for rights in allowed:
        for kept in windows[rights]:
            row = pooled(kept)
            row["rights"] = rights
            rows.append(row)
    return rows


def print_rows(rows):
    header = (f"{'tool':28} {'rate':>6} {'epochs':>6} {'bad cs':>6} {'dev median':>11} "
              f"{'dev p99':>9} {'dev max':>9} {'CPU s/min':>10} {'peak RSS':>9}")
    print(header)
    for r in rows:
        print(f"{r['tool']:28} {r['rate']:>4g}Hz {r['epochs']:>6} {r['bad_checksums']:>6} "
              f"{r['median_ms']:>8.3f} ms {r['p99_ms']:>6.3f} ms {r['max_ms']:>6.3f} ms "
              f"{r['cpu_per_min']:>9.3f}s {r['rss_mb']:>6.1f} MB")


def verdict(passed):
    return "met" if passed else "NOT met"


def measured(*rows):
    """Whether every row has intervals and a p99 (a NaN p99 would compare as a verdict)."""
    return all(r["intervals"] and r["p99_ms"] == r["p99_ms"] for r in rows)


def rounds_ratios(row, base):
    """Each round's p99 of `row` over `base`'s of the same round."""
    ratios = " ".join(f"x{m / b:.2f}" if b else "x-"
                      for m, b in zip(row["rounds_p99_ms"], base["rounds_p99_ms"]))
    return f"by round {ratios}"


def print_targets(rows, rights_rows):
    """Issue 24's targets beside the figures of this run."""
    print("\ntargets (issue 24), figures of this run:")
    for rate in sorted({r["rate"] for r in rows}):
        at = [r for r in rows if r["rate"] == rate]
        floor = next(r for r in at if r["tool"] == "floor")
        mock = next(r for r in at if r["tool"] == "mockgps")
        peers = [r for r in at if r["tool"] in ("gpsfake", "nmeasim")]
        paced = next((r for r in at if r["tool"] == "floor paced"), None)
        tail = mock["p99_ms"] / floor["p99_ms"] if floor["p99_ms"] else float("inf")
        if not measured(mock, floor, *([paced] if paced else [])):
            print(f"  {rate:g} Hz p99: no verdict, a row has no intervals")
        elif paced and paced["p99_ms"]:
            # Paced, mockgps's epoch is several writes: judged against the floor of those.
            paced_tail = mock["p99_ms"] / paced["p99_ms"]
            print(f"  {rate:g} Hz p99: x{paced_tail:.2f} the paced floor's (target <= 1.2): "
                  f"{verdict(paced_tail <= 1.2)}; x{tail:.2f} the one-write floor's; "
                  f"{mock['intervals']} intervals; {rounds_ratios(mock, paced)}")
        else:
            print(f"  {rate:g} Hz p99: x{tail:.2f} the floor's (target <= 1.2): "
                  f"{verdict(tail <= 1.2)}; {mock['intervals']} intervals; "
                  f"{rounds_ratios(mock, floor)}")
        if peers:
            best = min(peers, key=lambda r: r["cpu_per_min"])
            limit = best["cpu_per_min"] / 2
            print(f"  {rate:g} Hz CPU: {mock['cpu_per_min']:.3f} s/min at "
                  f"{mockgps_baud(rate)} baud (target <= {limit:.3f}, half of {best['tool']}'s "
                  f"{best['cpu_per_min']:.3f}): {verdict(mock['cpu_per_min'] <= limit)}")
            if paced and paced["cpu_per_min"]:
                print(f"    (the paced floor, the same {mockgps_baud(rate)} baud writes from C, "
                      f"{paced.get('writes_per_epoch', float('nan')):.1f} an epoch, each after "
                      f"asking the speed: "
                      f"{paced['cpu_per_min']:.3f} s/min, itself "
                      f"{verdict(paced['cpu_per_min'] <= limit)}; mockgps "
                      f"x{mock['cpu_per_min'] / paced['cpu_per_min']:.2f} of it)")
            unpaced = next((r for r in at if r["tool"] == "mockgps unpaced"), None)
            if unpaced:
                print(f"    (unpaced, one write an epoch as {best['tool']} writes: "
                      f"{unpaced['cpu_per_min']:.3f} s/min: "
                      f"{verdict(unpaced['cpu_per_min'] <= limit)})")
    for rights in RIGHTS:
        pair = [r for r in rights_rows if r["rights"] == rights]
        if len(pair) != 2:
            continue
        if not measured(*pair) or not pair[0]["p99_ms"]:
            print(f"  {pair[0]['rate']:g} Hz under two hogs, {rights}: no verdict, a row has no "
                  f"intervals or a p99 of 0")
            continue
        ratio = pair[1]["p99_ms"] / pair[0]["p99_ms"]
        target = " (target <= 2)" if rights == "user" else ""
        line = (f"  {pair[1]['rate']:g} Hz under two hogs, {rights}: p99 x{ratio:.2f} the "
                f"floor's ({rounds_ratios(pair[1], pair[0])})")
        print(line + (f"{target}: {verdict(ratio <= 2)}" if target else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--out", required=True)
    parser.add_argument("--port", type=int, default=29471)
    parser.add_argument("--rates", default="1,10")
    parser.add_argument(
        "--rights", action=argparse.BooleanOptionalAction,
        default=os.geteuid() == 0 and shutil.which("setpriv") is not None,
        help="the rows by the writers' rights, under two CPU hogs (needs root and setpriv)")
    parser.add_argument("--only-rights", action="store_true",
                        help="only the rows by the writers' rights (at the highest of --rates)")
    parser.add_argument("--rounds", type=positive, default=3,
                        help="windows a row's seconds are split into, the rows taking turns")
    args = parser.parse_args()
    args.rights = args.rights or args.only_rights
    args.window = args.seconds / args.rounds
    rates = [float(r) for r in args.rates.split(",")]
    slowest = max(rates) if args.only_rights else min(rates)  # the rights rows: the highest
    if args.window * slowest < MIN_EPOCHS_A_WINDOW:
        parser.error(f"windows of {args.window:g} s ({args.seconds:g} s in {args.rounds} rounds) "
                     f"hold fewer than {MIN_EPOCHS_A_WINDOW} epochs at {slowest:g} Hz, and a "
                     f"window's first and last epochs are left out: give more seconds or fewer "
                     f"rounds")
    log = capture_log(args)
    rows = []
    for rate in [] if args.only_rights else [float(r) for r in args.rates.split(",")]:
        makers = [("floor", functools.partial(run_floor, args, rate, log))]
        if paces_in_sentences(rate):
            makers.append(("floor paced", functools.partial(run_paced_floor, args, rate, log)))
        makers += [
            ("mockgps", functools.partial(run_mockgps, args, rate)),
            ("mockgps unpaced", functools.partial(run_mockgps, args, rate, baud=0,
                                                  label="mockgps unpaced")),
            ("gpsfake", functools.partial(run_gpsfake, args, rate, log)),
            ("nmeasim", functools.partial(run_nmeasim, args, rate)),
        ]
        rows += take_turns(args, makers)
    rights_rows = run_rights(args, log) if args.rights else []
    readers = sorted({r["reader"] for r in rows + rights_rows}) or ["-"]
    print(f"\nepoch-interval deviation from nominal, {args.seconds:g} s a row in {args.rounds} "
          f"rounds of {args.window:g} s, the rows of a rate taking turns "
          f"(mockgps at 9600 baud at 1 Hz, 115200 above; unpaced: --baud 0, one write an epoch);"
          f" reader under {', '.join(readers)}")
    print_rows(rows)
    if rights_rows:
        print("\nunder two CPU hogs (yes), by the writers' rights:")
        print_rows(rights_rows)

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
            if r["rate"] == rate and not r["tool"].startswith("floor"):
                print(f"  {r['tool']:8} {rate:>4g}Hz  median x{ratio(r, floor, 'median_ms'):.1f}, "
                      f"p99 x{ratio(r, floor, 'p99_ms'):.1f}, max x{ratio(r, floor, 'max_ms'):.1f}")
    print("\nratios to mockgps at the same rate (higher is worse for the other tool):")
    for rate in sorted({r["rate"] for r in rows}):
        base = next(r for r in rows if r["tool"] == "mockgps" and r["rate"] == rate)
        for r in rows:
            if r["rate"] != rate or r["tool"] == "mockgps" or r["tool"].startswith("floor"):
                continue
            print(f"  {r['tool']:8} {rate:>4g}Hz  p99 deviation x{ratio(r, base, 'p99_ms'):.1f}, "
                  f"CPU x{ratio(r, base, 'cpu_per_min'):.1f}, "
                  f"peak RSS x{ratio(r, base, 'rss_mb'):.1f}")
    print_targets(rows, rights_rows)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(rows + rights_rows, f, indent=2)


if __name__ == "__main__":
    main()
