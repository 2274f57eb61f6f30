#!/usr/bin/env python3
"""Passthrough benchmark: the latency mockgps adds between a real receiver and its link.

The "receiver" is a PTY pair made here (raw, its slave published at a temporary link); real NMEA
sentences from gpsd's corpus are written into its master one at a time, every few milliseconds,
and read back from the far end. Measured per sentence: from the write of its last byte (the
moment the write of the whole sentence is issued) to the read of its last byte (its LF). A
rewriter must hold a sentence until its end, so that is the latency that matters to a client.
Median and p99 over the sentences, in microseconds, for:
  floor          the receiver's PTY pair alone (write master, read slave): the machine's floor
  socat          `socat FILE:RECEIVER,raw,echo=0 PTY,link=OUT,raw,echo=0`: plain forwarding
                 between two PTYs, the peer to beat
  mockgps off    `mockgps run --passthrough RECEIVER --passthrough-baud 115200 --link OUT
                 --override off`: byte-identical forwarding
  mockgps replace  the same with `--override replace --position 51.5,-0.1`: every position
                 rewritten
Ratios are against socat. Target: p99 < 1 ms and p99 <= 1.5x socat's.
"""
import argparse
import glob
import json
import os
import pty
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tty

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cadence import stop, wait_for  # noqa: E402
from replay import xor  # noqa: E402


def corpus_sentences(directory, count):
    """The first `count` `$` sentences with a valid checksum of the corpus's logs, with CR LF
    (repeated when the corpus has fewer)."""
    out = []
    for path in sorted(glob.glob(os.path.join(directory, "*.log"))):
        with open(path, "rb") as f:
            for line in f.read().split(b"\n"):
                line = line.rstrip(b"\r")
                if not line.startswith(b"$") or b"*" not in line or len(line) > 82:
                    continue
                body, _, checksum = line[1:].rpartition(b"*")
                if checksum[:2].upper() == b"%02X" % xor(body) and all(32 <= b < 127 for b in line):
                    out.append(line + b"\r\n")
                    if len(out) >= count:
                        return out
    if not out:
        sys.exit("bench-passthrough: no NMEA sentences in " + directory)
    return (out * (count // len(out) + 1))[:count]


def open_raw(path):
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    tty.setraw(fd)
    return fd


def measure(write_fd, read_fd, sentences, interval):
    """Per sentence: seconds from its write to the read of its LF; None when it never came."""
    latencies = []
    pending = b""
    for sentence in sentences:
        started = time.perf_counter()
        os.write(write_fd, sentence)
        deadline = started + 1.0
        arrived = None
        while arrived is None and time.perf_counter() < deadline:
            ready, _, _ = select.select([read_fd], [], [], 0.1)
            if not ready:
                continue
            pending += os.read(read_fd, 65536)
            if b"\n" in pending:
                arrived = time.perf_counter() - started
                pending = pending[pending.rindex(b"\n") + 1:]
        latencies.append(arrived)
        time.sleep(interval)
    return latencies


def drain(fd, seconds=0.2):
    deadline = time.time() + seconds
    while time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.02)
        if ready:
            try:
                os.read(fd, 65536)
            except OSError:
                return


def summary(label, latencies):
    got = sorted(x for x in latencies if x is not None)
    if len(got) < 2:
        return {"label": label, "error": f"{len(got)} of {len(latencies)} sentences came back"}
    p99 = got[min(len(got) - 1, int(round(0.99 * (len(got) - 1))))]
    return {"label": label, "sentences": len(latencies), "lost": len(latencies) - len(got),
            "median_us": statistics.median(got) * 1e6, "p99_us": p99 * 1e6,
            "max_us": got[-1] * 1e6}


def receiver_pair(folder):
    """A raw PTY pair whose slave is published at FOLDER/receiver; the slave stays open here
    (never read) so that the master never sees a hang-up between forwarders."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    link = os.path.join(folder, "receiver")
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(os.ttyname(slave), link)
    return master, slave, link


def run_forwarder(label, command, out, folder, sentences, args, log_name):
    """Starts a forwarder, waits for its link OUT, measures through it, stops it."""
    log = open(os.path.join(args.out, log_name), "wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        if not wait_for(out, 10) or process.poll() is not None:
            stop(process)
            log.close()
            with open(os.path.join(args.out, log_name), "rb") as f:
                first = (f.read().decode(errors="replace").strip().splitlines() or ["no output"])[0]
            return {"label": label, "error": f"did not start: {first}"}
        reader = open_raw(out)
        return measure_through(label, reader, sentences, args)
    finally:
        stop(process)
        log.close()


def measure_through(label, reader, sentences, args):
    master = args.receiver_master
    # Warm up: the first sentences wake the path (and let mockgps see the client).
    measure(master, reader, sentences[:50], args.interval)
    drain(reader)
    result = summary(label, measure(master, reader, sentences, args.interval))
    os.close(reader)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--sentences", type=int, default=2000)
    parser.add_argument("--interval", type=float, default=0.003, help="seconds between sentences")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    sentences = corpus_sentences(args.corpus, args.sentences)
    folder = tempfile.mkdtemp(prefix="mockgps-bench-passthrough.")
    results = []
    try:
        # The floor: the receiver's PTY pair alone.
        master, slave = pty.openpty()
        tty.setraw(slave)
        os.set_blocking(slave, False)
        args.receiver_master = master
        measure(master, slave, sentences[:50], args.interval)
        drain(slave)
        results.append(summary("floor (PTY pair)", measure(master, slave, sentences, args.interval)))
        os.close(master)
        os.close(slave)

        runs = [("socat", lambda link, out: [
            "socat", f"FILE:{link},raw,echo=0", f"PTY,link={out},raw,echo=0"])]
        runs.append(("mockgps --override off", lambda link, out: [
            args.binary, "run", "--passthrough", link, "--passthrough-baud", "115200",
            "--link", out, "--override", "off"]))
        runs.append(("mockgps --override replace", lambda link, out: [
            args.binary, "run", "--passthrough", link, "--passthrough-baud", "115200",
            "--link", out, "--override", "replace", "--position", "51.5,-0.1"]))
        for index, (label, command) in enumerate(runs):
            master, slave, link = receiver_pair(folder)
            args.receiver_master = master
            out = os.path.join(folder, f"out{index}")
            if label == "socat" and shutil.which("socat") is None:
                results.append({"label": label, "error": "socat not installed"})
            else:
                results.append(run_forwarder(label, command(link, out), out, folder, sentences,
                                             args, f"run{index}.log"))
            os.close(master)
            os.close(slave)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    with open(os.path.join(args.out, "passthrough.json"), "w") as f:
        json.dump(results, f, indent=2)
    socat = next((r for r in results if r["label"] == "socat" and "error" not in r), None)
    print("latency added: write of a sentence's last byte -> read of its last byte (LF),")
    print(f"{len(sentences)} corpus sentences, one every {args.interval * 1000:g} ms, microseconds")
    print(f"{'path':28} {'median':>8} {'p99':>8} {'max':>8} {'lost':>5}  vs socat (median, p99)")
    for r in results:
        if "error" in r:
            print(f"{r['label']:28} {r['error']}")
            continue
        ratio = ""
        if socat and r is not socat:
            ratio = (f"{r['median_us'] / socat['median_us']:.2f}x, "
                     f"{r['p99_us'] / socat['p99_us']:.2f}x")
        print(f"{r['label']:28} {r['median_us']:8.0f} {r['p99_us']:8.0f} {r['max_us']:8.0f} "
              f"{r['lost']:5}  {ratio}")
    for r in results:
        if r["label"].startswith("mockgps") and "error" not in r and socat:
            ok = r["p99_us"] < 1000 and r["p99_us"] <= 1.5 * socat["p99_us"]
            print(f"{r['label']}: target p99 < 1000 us and <= 1.5x socat: "
                  f"{'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
