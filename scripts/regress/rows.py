"""One row of the regression table: one log through one tool, compared with its `.chk`.

`gpsfake_row` is gpsd's regress-driver line for one log. `mockgps_row` sets up what gpsfake
sets up (a private gpsd, its device added through the control socket, a pipe-mode watcher)
with mockgps replaying the log on a PTY instead of gpsfake's feeder (and, `--via
passthrough`, a second mockgps passing that PTY through, as it would a real receiver).
"""
import os
import socket
import subprocess
import threading
import time

import gpsfilter
from processes import Child, free_port, wait_until

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"
# How gpsd reads mockgps: its replay of the log, or that replay passed through a second mockgps.
VIAS = ("replay", "passthrough")
WATCH = b'?WATCH={"json":true,"nmea":true}\n'
# gpsfake's own bound is 60 s without progress; a log through either tool takes seconds.
ROW_TIMEOUT = 120


class Row:
    """The outcome of one log through one tool: `status`, `seconds`, and `note` (why)."""

    def __init__(self, tool, log, status, seconds, note=""):
        self.tool, self.log, self.status, self.seconds, self.note = (
            tool, log, status, seconds, note)


def _finish(tool, log, raw, results, started, note=""):
    output = gpsfilter.normalise(raw)
    base = os.path.join(results, tool, log.name)
    passed = gpsfilter.compare(log.path, output, base + ".out", base + ".diff")
    if not passed and tool == "mockgps":
        extra = _leading_rtcm2_extra(log.path + ".chk", output)
        if extra:
            passed = True
            note = ("the expected output after %d RTCM2 message(s) gpsd decodes from the log's "
                    "first bytes, which gpsfake's own lexer drops while it synchronises" % extra)
    return Row(tool, log, PASS if passed else FAIL, time.monotonic() - started, note)


def _leading_rtcm2_extra(chk_path, output):
    """How many lines `output` holds before exactly the `.chk`'s lines, when all of them are
    RTCM2 reports; else 0. gpsfake feeds gpsd only the packets its lexer returns, and on an
    RTCM 2 bit stream that lexer needs the first messages to lock on, so they never reach gpsd;
    mockgps sends the log's bytes as recorded, and gpsd decodes those messages too."""
    with open(chk_path, "rb") as f:
        expected = f.read().splitlines()
    got = output.splitlines()
    extra = len(got) - len(expected)
    if extra <= 0 or got[extra:] != expected:
        return 0
    if not all(b'"class":"RTCM2"' in line for line in got[:extra]):
        return 0
    return extra


def gpsfake_row(log, results, scratch):
    """`gpsfake -s 38400 -1 -p LOG | GPSFILTER`, diffed with LOG.chk, as regress-driver does."""
    started = time.monotonic()
    env = gpsfilter.c_locale()
    env["TMPDIR"] = scratch  # gpsfake's control socket goes there
    stderr_path = os.path.join(results, "gpsfake", log.name + ".stderr")
    with open(stderr_path, "wb") as stderr, Child(
            ["gpsfake", "-s", "38400", "-1", "-p", log.path], env=env,
            stdout=subprocess.PIPE, stderr=stderr) as gpsfake:
        try:
            raw, _ = gpsfake.process.communicate(timeout=ROW_TIMEOUT)
            note = ""
        except subprocess.TimeoutExpired:
            gpsfake.kill()
            raw, note = gpsfake.process.stdout.read(), "timed out"
    return _finish("gpsfake", log, raw, results, started, note)


class Watcher:
    """A pipe-mode client of gpsd (gpsfake's `-p`): sends ?WATCH and keeps every line gpsd
    sends, as gpsfake's gps.gps client prints them, with the time of the last one."""

    def __init__(self, port):
        self.lines = []
        self.last_line_at = time.monotonic()
        self.device_gone = threading.Event()
        self.closed = threading.Event()
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.sock.settimeout(None)
        self.sock.sendall(WATCH)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        pending = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                pending += chunk
                *complete, pending = pending.split(b"\n")
                for line in complete:
                    self.lines.append(line + b"\n")
                    if line.startswith(b'{"class":"DEVICE"') and b'"activated":0' in line:
                        self.device_gone.set()
                if complete:
                    self.last_line_at = time.monotonic()
        except OSError:
            pass
        finally:
            self.closed.set()

    def quiet_for(self, seconds):
        return time.monotonic() - self.last_line_at >= seconds

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.thread.join(2)

    def output(self):
        return b"".join(self.lines)


def last_line(path):
    """The last line of a text file, shortened, for a note."""
    with open(path, "rb") as f:
        lines = f.read().decode("utf-8", "replace").strip().splitlines()
    return lines[-1].rsplit(": ", 1)[-1][:80] if lines else "no output"


def add_device(control_socket, path):
    """Adds `path` to gpsd's devices through its control socket, as gpsfake does; gpsd's
    answer (OK or ERROR)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as control:
        control.settimeout(5)
        control.connect(control_socket)
        control.sendall(b"+" + path.encode() + b"\r\n\x00")
        return control.recv(12).strip().decode("ascii", "replace")


def mockgps_row(log, results, scratch, mockgps, quiet_seconds, via="replay"):
    """LOG replayed by mockgps on a PTY into a private gpsd, captured by a pipe-mode watcher,
    GPSFILTER'd and diffed with LOG.chk. With `via` "passthrough", the replay is the "real
    receiver" of a second mockgps (`--passthrough REPLAY --override off`), which gpsd reads."""
    started = time.monotonic()
    if log.transport:
        return Row("mockgps", log, SKIP, 0, "Transport: " + log.transport)
    port = free_port()
    control = os.path.join(scratch, "gpsd.sock")
    env = dict(os.environ)
    env["GPSD_SHM_KEY"] = "0x4770%04X" % port  # as gps/fake.py derives it
    base = os.path.join(results, "mockgps", log.name)
    note = ""
    with open(base + ".gpsd.stderr", "wb") as gpsd_err, \
            open(base + ".mockgps.output", "wb") as mockgps_err, \
            Child(["gpsd", "-b", "-N", "-S", str(port), "-F", control], env=env,
                  stderr=gpsd_err) as gpsd:
        if not wait_until(lambda: os.path.exists(control), 10):
            return Row("mockgps", log, FAIL, time.monotonic() - started, "gpsd did not start")
        link = os.path.join(scratch, "tty")
        # Unpaced, a replay waits for its client. A receiver passed through does not (what
        # the passthrough's client leaves unread is dropped): paced at the log's baud, 100
        # times as fast as recorded, it sends no faster than gpsd reads.
        pace = (["--baud", str(log.baud), "--time-scale", "100"] if via == "passthrough"
                else ["--baud", "0", "--time-scale", "1000000"])
        with Child([mockgps, "run", "--replay", log.path, "--link", link,
                    "--wait-for-client", "--once"] + pace, stdout=mockgps_err,
                   stderr=subprocess.STDOUT) as replay:
            failure = _device_failure(link, replay, mockgps_err, base)
            passthrough = None
            if not failure and via == "passthrough":
                receiver, link = link, os.path.join(scratch, "tty-passthrough")
                passthrough = Child([mockgps, "run", "--passthrough", receiver,
                                     "--passthrough-baud", str(log.baud), "--override", "off",
                                     "--link", link], stdout=mockgps_err,
                                    stderr=subprocess.STDOUT)
                failure = _device_failure(link, passthrough, mockgps_err, base)
            if failure:
                if passthrough:
                    passthrough.kill()
                return Row("mockgps", log, FAIL, time.monotonic() - started, failure)
            answer = add_device(control, link)
            if answer != "OK":
                note = "gpsd answered %r to +%s" % (answer, link)
            watcher = Watcher(port)
            try:
                status = replay.exited(ROW_TIMEOUT)
                if status is None:
                    note = "mockgps did not exit within %d s" % ROW_TIMEOUT
                elif status != 0:
                    note = "mockgps exited %d" % status
                # gpsd reports the device gone, or goes quiet, once the PTY hung up; a
                # passthrough's link stays up, silent.
                wait_until(lambda: watcher.device_gone.is_set() or watcher.closed.is_set()
                           or watcher.quiet_for(quiet_seconds), 10)
                if passthrough and passthrough.process.poll() is not None:
                    note = (note + "; " if note else "") + "the passthrough mockgps exited %d" % (
                        passthrough.process.returncode)
                if gpsd.process.poll() is not None:
                    note = (note + "; " if note else "") + "gpsd died"
            finally:
                watcher.close()
                if passthrough:
                    passthrough.kill()
    return _finish("mockgps", log, watcher.output(), results, started, note)


def _device_failure(link, child, output, base):
    """Waits for `child` (a mockgps run) to make its device link; None when it did, else why
    not."""
    if wait_until(lambda: os.path.exists(link) or child.process.poll() is not None, 10) \
            and os.path.exists(link):
        return None
    status = child.exited(1)
    output.flush()
    return "mockgps made no device (exit %s: %s)" % (status, last_line(base + ".mockgps.output"))
