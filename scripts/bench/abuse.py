#!/usr/bin/env python3
"""The abuse figures of issue 22 (findings 3-6): scripts/abuse's harness.

Usage: abuse.py --binary MOCKGPS --out DIR [--route-mb MB] [--format-mb MB]

1. Route load: `mockgps run --rate 5 --tcp` with a control socket; one client sends `route` with
   a GeoJSON and then a CSV of ROUTE-MB megabytes, another sends `status` at once. Prints the
   load's time and reply, when `status` was answered, the longest gap in the TCP output during
   the load (the other devices' stall) and the daemon's peak resident memory (VmHWM).
2. Peak resident memory of `mockgps check` per megabyte of input, for GPX, GeoJSON, CSV and KML
   tracks of about FORMAT-MB megabytes each (the reader `route` uses).
   Then a 1 GiB sparse file starting as GeoJSON, past the cap: `check`'s exit status, time and
   message (a clean exit 65 naming the limit, never an abort).
3. The descriptor limit: `prlimit --nofile=128` with TCP clients until no more connect, then one
   control connection; mockgps's CPU over 3 s, in % of one core, and the log lines it wrote.
4. Slowloris: 70 connections that sent a request line and a Host header; the token holder's
   response time (curl, at most 10 s).
5. Recordings: `check` of one record of 1 MiB and one of 4 MiB (a linear reader takes about 4
   times as long for the second, a quadratic one 16 times), and of a 2 MiB recording whose
   first count was corrupted (time and exit status).
Python 3 standard library only.
"""
import argparse
import os
import re
import resource
import select
import socket
import subprocess
import time

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def start(args, *arguments, prefix=()):
    return subprocess.Popen(
        [*prefix, args.binary, "run", *arguments],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(stream, pattern, seconds=20):
    deadline = time.time() + seconds
    line = ""
    while time.time() < deadline:
        line = stream.readline()
        match = re.search(pattern, line)
        if match:
            return match
    raise SystemExit(f"abuse: no '{pattern}' from mockgps (last: {line!r})")


def stop(process):
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def points(megabytes):
    n = 0
    while True:
        yield n, 51 + n * 1e-6, -0.1 + n * 1e-6, 40 + n % 100
        n += 1


def write_route(path, kind, megabytes):
    limit = int(megabytes * 1e6)
    with open(path, "w") as f:
        if kind == "csv":
            f.write("lat,lon,alt\n")
        elif kind == "gpx":
            f.write('<?xml version="1.0"?>\n<gpx version="1.1" creator="abuse" '
                    'xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>\n')
        elif kind == "kml":
            f.write('<?xml version="1.0"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">'
                    "<Placemark><LineString><coordinates>\n")
        else:
            f.write('{"type":"Feature","properties":{},"geometry":{"type":"LineString",'
                    '"coordinates":[\n')
        first = True
        for n, lat, lon, alt in points(megabytes):
            if f.tell() >= limit:
                break
            if kind == "csv":
                f.write(f"{lat:.7f},{lon:.7f},{alt}.0\n")
            elif kind == "gpx":
                f.write(f'<trkpt lat="{lat:.7f}" lon="{lon:.7f}"><ele>{alt}</ele></trkpt>\n')
            elif kind == "kml":
                f.write(f"{lon:.7f},{lat:.7f},{alt}\n")
            else:
                f.write(("" if first else ",") + f"[{lon:.7f},{lat:.7f},{alt}]\n")
            first = False
        f.write({"csv": "", "gpx": "</trkseg></trk></gpx>\n",
                 "kml": "</coordinates></LineString></Placemark></kml>\n",
                 "geojson": "]}}\n"}[kind])
    return os.path.getsize(path)


def control_request(sock, request, seconds):
    sock.sendall((request + "\n").encode())
    return read_line(sock, seconds)


def read_line(sock, seconds):
    data = b""
    deadline = time.time() + seconds
    while b"\n" not in data and time.time() < deadline:
        ready, _, _ = select.select([sock], [], [], max(0, deadline - time.time()))
        if ready:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    return data.decode(errors="replace").strip()


def peak_resident_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def route_load(args, kind):
    route = os.path.join(args.out, f"large.{kind}")
    size = write_route(route, kind, args.route_mb)
    control = os.path.join(args.out, "control.sock")
    process = start(args, "--link", os.path.join(args.out, "gps-route"), "--control", control,
                    "--rate", "5", "--tcp", "127.0.0.1:0")
    try:
        port = int(wait_for(process.stdout, r"serving tcp://[^:]+:(\d+)")[1])
        output = socket.create_connection(("127.0.0.1", port))
        loader, other = socket.socket(socket.AF_UNIX), socket.socket(socket.AF_UNIX)
        loader.connect(control)
        other.connect(control)
        begin = time.time()
        loader.sendall(('{"cmd":"route","file":"%s"}\n' % route).encode())
        other.sendall(b'{"cmd":"status"}\n')
        status_at = reply_at = None
        last, gap = begin, 0.0
        pending = {other: b"", loader: b""}
        while reply_at is None and time.time() - begin < 600:
            ready, _, _ = select.select([output, other, loader], [], [], 0.1)
            now = time.time()
            for sock in ready:
                chunk = sock.recv(65536)
                if sock is output:
                    gap, last = max(gap, now - last), now
                    continue
                pending[sock] += chunk
                if b"\n" in pending[sock]:
                    if sock is other and status_at is None:
                        status_at = now - begin
                    if sock is loader:
                        reply_at = now - begin
        gap = max(gap, time.time() - last)
        reply = pending[loader].decode(errors="replace").strip()[:160]
        peak = peak_resident_mb(process.pid)
        print(f"route load: {size / 1e6:.1f} MB {kind} answered in "
              f"{reply_at or float('nan'):.1f} s ({reply}); another client's status answered "
              f"after {status_at if status_at is not None else float('nan'):.2f} s; longest TCP "
              f"output gap during the load {gap:.2f} s (5 Hz: 0.2 s expected); daemon peak RSS "
              f"{peak:.0f} MB ({peak / (size / 1e6):.1f} MB per MB of input, with its own "
              f"baseline)")
    finally:
        stop(process)


def peak_rss(args):
    for kind in ["gpx", "geojson", "csv", "kml"]:
        path = os.path.join(args.out, f"track.{kind}")
        size = write_route(path, kind, args.format_mb)
        timed = subprocess.run(["/usr/bin/time", "-f", "%M %e", args.binary, "check", path],
                               capture_output=True, text=True)
        last = timed.stderr.strip().splitlines()[-1].split()
        kilobytes, seconds = int(last[0]), float(last[1])
        print(f"peak RSS {kind:8}: {size / 1e6:5.1f} MB in, {kilobytes / 1024:7.1f} MB peak, "
              f"{kilobytes / 1024 / (size / 1e6):5.1f} MB per MB, {seconds:.1f} s, "
              f"exit {timed.returncode}")
        os.unlink(path)


def oversized_geojson(args):
    path = os.path.join(args.out, "huge.geojson")
    with open(path, "wb") as f:
        f.write(b'{"type": ')
        f.truncate(1 << 30)
    timed = subprocess.run(["/usr/bin/time", "-f", "%M %e", args.binary, "check", path],
                           capture_output=True, text=True)
    lines = timed.stderr.strip().splitlines()
    kilobytes, seconds = lines[-1].split()
    said = next((line for line in lines[:-1] if line.startswith(path)), "")[len(path):]
    print(f"oversized GeoJSON: 1 GiB (sparse), exit {timed.returncode} after {seconds} s, "
          f"{int(kilobytes) / 1024:.1f} MB peak: {said.lstrip(': ')[:150]}")
    os.unlink(path)


def descriptor_limit(args):
    control = os.path.join(args.out, "limit.sock")
    log = os.path.join(args.out, "limit.log")
    with open(log, "w") as errors:
        process = subprocess.Popen(
            ["prlimit", "--nofile=128:128", args.binary, "run", "--link",
             os.path.join(args.out, "gps-limit"), "--control", control, "--tcp", "127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=errors, text=True)
    clients = []
    try:
        port = int(wait_for(process.stdout, r"serving tcp://[^:]+:(\d+)")[1])
        # Until the backlog is full too (five connects in a row time out): a loaded machine
        # may leave a connect waiting before that.
        failures = 0
        while failures < 5 and len(clients) < 400:
            client = socket.socket()
            client.settimeout(1)
            try:
                client.connect(("127.0.0.1", port))
            except OSError:
                client.close()
                failures += 1
                continue
            failures = 0
            clients.append(client)
        extra = socket.socket(socket.AF_UNIX)
        extra.settimeout(0.3)
        try:
            extra.connect(control)
        except OSError:
            pass
        time.sleep(1)
        descriptors = len(os.listdir(f"/proc/{process.pid}/fd"))
        before, lines_before = cpu_seconds(process.pid), sum(1 for _ in open(log))
        time.sleep(3)
        cpu = (cpu_seconds(process.pid) - before) / 3 * 100
        lines = sum(1 for _ in open(log)) - lines_before
        with open(log) as f:
            warnings = [line for line in f if "open files" in line]
        print(f"descriptor limit: nofile 128, {len(clients)} TCP clients connected (then the "
              f"backlog filled) and one control connection, mockgps holding {descriptors} "
              f"descriptors; its CPU {cpu:.1f} % of a core over 3 s, {lines} log lines in those "
              f"3 s; "
              f"{len(warnings)} 'open files' warning(s) in all: "
              f"{warnings[0].strip()[:120] if warnings else '(none: the limit was not hit)'}")
    finally:
        for client in clients:
            client.close()
        stop(process)


def slowloris(args):
    process = start(args, "--link", os.path.join(args.out, "gps-panel"), "--no-control",
                    "--panel", "0")
    slow = []
    try:
        match = wait_for(process.stderr, r"127\.0\.0\.1:(\d+)/\?token=([0-9a-f]+)")
        port, token = int(match[1]), match[2]
        for _ in range(70):
            sock = socket.socket()
            sock.settimeout(0.3)
            try:
                sock.connect(("127.0.0.1", port))
                sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
                slow.append(sock)
            except OSError:
                sock.close()
        time.sleep(1)
        begin = time.time()
        answer = subprocess.run(
            ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10",
             f"http://127.0.0.1:{port}/api/devices?token={token}"],
            capture_output=True, text=True)
        print(f"slowloris: {len(slow)} trickling connections; the token holder got HTTP "
              f"{answer.stdout} after {time.time() - begin:.2f} s (curl gives up at 10 s)")
    finally:
        for sock in slow:
            sock.close()
        stop(process)


def recording(args):
    header = b"# mockgps recording 1\n# Serial: 9600 8N1\n"
    records = []
    for mebibytes in [1, 4]:
        body = b"$GPTXT,01,01,02,abuse*00\r\n" * (mebibytes * 1024 * 1024 // 26)
        path = os.path.join(args.out, f"record-{mebibytes}.rec")
        with open(path, "wb") as f:
            f.write(header + b"@1764540000.000000000 %d\n" % len(body) + body + b"\n")
        records.append((f"one {mebibytes} MiB record", path))
    epoch = b"$GPTXT,01,01,02,abuse*00\r\n" * 8
    corrupt = os.path.join(args.out, "corrupt.rec")
    with open(corrupt, "wb") as f:
        f.write(header)
        for index in range(2 * 1024 * 1024 // len(epoch)):
            count = 99999999 if index == 0 else len(epoch)
            f.write(b"@%d.000000000 %d\n" % (1764540000 + index, count) + epoch + b"\n")
    for label, path in records + [("2 MiB, corrupted count", corrupt)]:
        begin = time.time()
        try:
            done = subprocess.run([args.binary, "check", path], capture_output=True, text=True,
                                  timeout=300)
            status, said = done.returncode, (done.stderr or done.stdout).strip().splitlines()
            said = said[0].removeprefix(path)[:130] if said else ""
        except subprocess.TimeoutExpired:
            status, said = "none (killed at 300 s)", ""
        print(f"recording check, {label}: {time.time() - begin:.2f} s, exit {status}: {said}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--route-mb", type=float, default=8)
    parser.add_argument("--format-mb", type=float, default=10)
    args = parser.parse_args()
    print(f"mockgps: {args.binary}")
    route_load(args, "geojson")
    route_load(args, "csv")
    peak_rss(args)
    oversized_geojson(args)
    descriptor_limit(args)
    slowloris(args)
    recording(args)


if __name__ == "__main__":
    main()
