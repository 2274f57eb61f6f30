"""A hardware-in-loop rig in miniature: mockgps is the receiver, the real gpsd the software
under test. Each test moves the receiver through mockgps's control socket and asserts on what
gpsd reports. Copy it and put your own software where gpsd is.

    MOCKGPS_BIN=.build/debug/mockgps python3 -m pytest -q Tests/Rig

gpsd missing skips the tests, unless MOCKGPS_REQUIRE_GPSD=1 (then they fail).
"""

import json
import os
import shutil
import socket
import subprocess
import time

import pytest

from mockgps_control import ControlError, MockGPSControl

START = (51.477928, -0.001545, 46.0)  # Greenwich
RATE_HZ = 5
# Two epochs for the change to reach the wire and gpsd, plus gpsd's own reporting delay.
FOLLOW_SECONDS = 5
GPSD = shutil.which("gpsd") or shutil.which("gpsd", path="/usr/sbin:/sbin")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def require(condition, reason):
    """Skips the test, or fails it when MOCKGPS_REQUIRE_GPSD=1."""
    if not condition:
        if os.environ.get("MOCKGPS_REQUIRE_GPSD") == "1":
            pytest.fail(reason)
        pytest.skip(reason)


def wait_until(condition, seconds, what):
    """Polls `condition` until it returns something true; fails after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(0.05)
    pytest.fail("timed out after %s s waiting for %s" % (seconds, what))


def stop(process):
    """Ends a process started by a fixture: SIGTERM, then SIGKILL after 3 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=3)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=3)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def receiver(tmp_path):
    """`mockgps run` on a link and a control socket of its own; yields (link, control client)."""
    binary = os.environ.get("MOCKGPS_BIN", os.path.join(REPO, ".build", "debug", "mockgps"))
    require(os.access(binary, os.X_OK), "no mockgps at %s: set MOCKGPS_BIN" % binary)
    link, control = str(tmp_path / "ttyMOCKGPS"), str(tmp_path / "control.sock")
    position = ",".join(map(str, START))
    log = tmp_path / "mockgps.log"
    process = subprocess.Popen(
        [binary, "run", "--link", link, "--control", control, "--position", position,
         "--rate", str(RATE_HZ), "--baud", "115200"],
        stdout=subprocess.DEVNULL, stderr=log.open("wb"))
    try:
        wait_until(lambda: os.path.exists(control) or process.poll() is not None, 10,
                   "mockgps's control socket")
        if process.poll() is not None:
            pytest.fail("mockgps exited: %s" % log.read_text())
        with MockGPSControl(control) as gps:
            yield link, gps
    finally:
        stop(process)


@pytest.fixture
def gpsd(receiver, tmp_path):
    """The real gpsd on the receiver's link, on a free port; yields a watcher of its reports."""
    require(GPSD, "gpsd is not installed (scripts/install-deps --test)")
    link, _ = receiver
    port = free_port()
    process = subprocess.Popen(
        [GPSD, "-N", "-n", "-F", str(tmp_path / "gpsd.sock"), "-S", str(port), link],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        watcher = wait_until(lambda: GpsdWatcher.connect(port), 5, "gpsd on port %d" % port)
        with watcher:
            yield watcher
    finally:
        stop(process)


class GpsdWatcher:
    """A gpsd client: `?WATCH` for JSON reports, then `tpv(...)` waits for a matching one."""

    @staticmethod
    def connect(port):
        try:
            return GpsdWatcher(socket.create_connection(("127.0.0.1", port), timeout=1))
        except OSError:
            return None

    def __init__(self, connection):
        self.connection = connection
        self.connection.sendall(b'?WATCH={"enable":true,"json":true}\n')
        self.lines = connection.makefile("rb")

    def tpv(self, matches, seconds, what):
        """The first TPV report for which `matches(report)` holds, within `seconds`."""
        deadline = time.monotonic() + seconds
        seen = []
        while time.monotonic() < deadline:
            # gpsd reports every epoch; a gpsd that hangs fails the test at the deadline.
            self.connection.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                line = self.lines.readline()
            except socket.timeout:
                break
            if not line:
                pytest.fail("gpsd closed the connection")
            report = json.loads(line)
            if report.get("class") == "TPV":
                seen.append(report)
                if matches(report):
                    return report
        pytest.fail("no TPV with %s within %s s; last: %s" % (what, seconds, seen[-3:]))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.lines.close()
        self.connection.close()


def near(latitude, longitude):
    """A TPV predicate: a 3D fix within about a centimetre of the position."""
    return lambda tpv: (tpv.get("mode") == 3 and abs(tpv.get("lat", 0) - latitude) < 2e-7
                        and abs(tpv.get("lon", 0) - longitude) < 2e-7)


def test_gpsd_follows_a_position_change(receiver, gpsd):
    _, gps = receiver
    gpsd.tpv(near(*START[:2]), 15, "the start position")

    gps.request("position", lat=48.858222, lon=2.2945, alt=35)

    fix = gpsd.tpv(near(48.858222, 2.2945), FOLLOW_SECONDS, "the new position")
    assert abs(fix["altMSL"] - 35) < 0.05


def test_gpsd_reports_no_fix_after_fix_none_and_3d_after_fix_3d(receiver, gpsd):
    _, gps = receiver
    gpsd.tpv(lambda tpv: tpv.get("mode") == 3, 15, "a 3D fix")

    gps.request("fix", mode="none")
    gpsd.tpv(lambda tpv: tpv.get("mode") == 1, FOLLOW_SECONDS, "mode 1 (no fix)")

    gps.request("fix", mode="3d")
    gpsd.tpv(lambda tpv: tpv.get("mode") == 3, FOLLOW_SECONDS, "mode 3 again")


def test_a_bad_request_is_refused_and_changes_nothing(receiver):
    _, gps = receiver
    with pytest.raises(ControlError, match="lat"):
        gps.request("position", lat=91, lon=0)
    assert gps.request("status")["ok"]
