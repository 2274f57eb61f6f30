"""The panel of `mockgps run --panel` in a real browser: headless Chromium driven by Selenium,
checked against what a reader of the tty and the real gpsd see. It also shows how a rig test
can drive the panel through its stable hooks (README, "Driving the panel from a test").

    MOCKGPS_BIN=.build/debug/mockgps python3 -m pytest -q Tests/Panel

Chromium, chromedriver or selenium missing (scripts/install-deps --test) skips the tests,
unless MOCKGPS_REQUIRE_BROWSER=1; gpsd missing skips the gpsd test, unless
MOCKGPS_REQUIRE_GPSD=1. Every process started here is bounded in time and ended in teardown.
"""

import calendar
import contextlib
import json
import math
import os
import re
import select
import shutil
import socket
import subprocess
import termios
import time
import tty

import pytest

START = (51.477928, -0.001545, 46.0)  # Greenwich
RATE_HZ = 1
EPOCH_SECONDS = 1.0 / RATE_HZ
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCREENSHOT = os.path.join(REPO, ".build", "panel-screenshot.png")
GPSD = shutil.which("gpsd") or shutil.which("gpsd", path="/usr/sbin:/sbin")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver") or shutil.which("chromedriver", path="/usr/lib/chromium")
PANEL_LINE = re.compile(r"mockgps: panel at (http://\S+)")

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.select import Select
except ImportError:  # the tests skip (or fail when required) below
    webdriver = None


def require(condition, reason, variable="MOCKGPS_REQUIRE_BROWSER"):
    """Skips the test, or fails it when `variable` is 1."""
    if not condition:
        if os.environ.get(variable) == "1":
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
    """Ends a process started here: SIGTERM, then SIGKILL after 3 s."""
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


# ---- mockgps and a reader of its tty ----------------------------------------------------------


@pytest.fixture
def source():
    """The source options of `receiver`: a fixed position (a test may parametrize it)."""
    return ["--position", ",".join(map(str, START))]


@pytest.fixture
def receiver(tmp_path, source):
    """`mockgps run --panel 0` on a link of its own; yields (link, panel URL)."""
    link = str(tmp_path / "ttyMOCKGPS")
    # The panel loads route files only from the folder --panel-files names: the fixtures'.
    with panel_run(tmp_path, "--link", link, "--control", str(tmp_path / "control.sock"),
                   *source, "--rate", str(RATE_HZ), "--baud", "115200",
                   "--panel-files", os.path.join(REPO, "Tests", "Fixtures", "routes")) as url:
        yield link, url


@contextlib.contextmanager
def panel_run(folder, *options):
    """`mockgps run OPTIONS --panel 0`, stopped on exit; yields the panel's URL."""
    binary = os.environ.get("MOCKGPS_BIN", os.path.join(REPO, ".build", "debug", "mockgps"))
    require(os.access(binary, os.X_OK), "no mockgps at %s: set MOCKGPS_BIN" % binary)
    log = folder / "mockgps.log"
    process = subprocess.Popen([binary, "run", *options, "--panel", "0"],
                               stdout=subprocess.DEVNULL, stderr=log.open("wb"))
    try:
        def panel_url():
            found = PANEL_LINE.search(log.read_text(errors="replace"))
            return found.group(1) if found else process.poll() is not None
        url = wait_until(panel_url, 15, "the panel's URL on mockgps's standard error")
        if process.poll() is not None:
            pytest.fail("mockgps exited: %s" % log.read_text(errors="replace"))
        yield url
    finally:
        stop(process)


class TtyReader:
    """Reads NMEA sentences from the link, as the software under test would."""

    def __init__(self, link):
        self.fd = os.open(link, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self.fd, termios.TCSANOW)
        self.buffer = b""

    def close(self):
        os.close(self.fd)

    def drain(self):
        """Forgets the sentences written before now; keeps the start of one in flight."""
        while select.select([self.fd], [], [], 0)[0]:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            if not data:
                break
            self.buffer += data
        self.buffer = self.buffer[self.buffer.rfind(b"\n") + 1:]

    def sentence(self, seconds):
        """The next sentence (without checksum and line end), or None after `seconds`."""
        deadline = time.monotonic() + seconds
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return None
            try:
                self.buffer += os.read(self.fd, 4096)
            except BlockingIOError:
                continue
        line, self.buffer = self.buffer.split(b"\n", 1)
        line = line.strip().decode("ascii", "replace")
        # The first line read after opening may be the tail of a sentence.
        return line.split("*")[0] if line.startswith("$") else self.sentence(
            max(0, deadline - time.monotonic()))

    def sentences(self, seconds):
        """Sentences until `seconds` have passed."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            line = self.sentence(deadline - time.monotonic())
            if line is None:
                return
            yield line

    def gga(self, seconds=5):
        """The next GGA: (seconds of the UTC day, latitude, longitude)."""
        for line in self.sentences(seconds):
            fields = line.split(",")
            if fields[0].endswith("GGA") and fields[2]:
                return seconds_of_day(fields[1]), degrees(fields[2], fields[3]), \
                    degrees(fields[4], fields[5])
        pytest.fail("no GGA with a position on the tty within %s s" % seconds)

    def gsv_cycle(self, seconds=5):
        """The satellite numbers of one whole GSV cycle (every talker's pages 1 to N)."""
        cycle, pages = [], {}
        for line in self.sentences(seconds):
            fields = line.split(",")
            if not fields[0].endswith("GSV"):
                if pages and all(seen == total for seen, total in pages.values()):
                    return sorted(cycle)
                continue
            talker, total, number = fields[0][1:3], int(fields[1]), int(fields[2])
            if number == 1:
                pages[talker] = (0, total)
                cycle = [prn for prn in cycle if prn[0] != talker]
            if talker not in pages or pages[talker][0] != number - 1:
                pages.pop(talker, None)  # joined mid-cycle: wait for the next page 1
                continue
            pages[talker] = (number, total)
            # Four satellites a page at most (number, elevation, azimuth, SNR); a 4.10 GSV
            # ends with a signal ID.
            for index in range(4, len(fields) - 3, 4):
                if fields[index]:
                    cycle.append((talker, int(fields[index])))
        pytest.fail("no whole GSV cycle on the tty within %s s" % seconds)

    def gsa_used(self, seconds=5):
        """The satellite numbers of the next epoch's GSA sentences (one per constellation)."""
        used = None
        for line in self.sentences(seconds):
            fields = line.split(",")
            if fields[0].endswith("GSA"):
                used = (used or []) + [int(prn) for prn in fields[3:15] if prn]
            elif used is not None:
                return sorted(used)
        pytest.fail("no GSA on the tty within %s s" % seconds)


def seconds_of_day(hhmmss):
    return int(hhmmss[0:2]) * 3600 + int(hhmmss[2:4]) * 60 + float(hhmmss[4:])


def degrees(value, hemisphere):
    point = value.index(".")
    result = int(value[:point - 2]) + float(value[point - 2:]) / 60
    return -result if hemisphere in ("S", "W") else result


def utc_seconds_of_day(wall):
    return wall - calendar.timegm(time.gmtime(wall)[:3] + (0, 0, 0))


@pytest.fixture
def reader(receiver):
    link, _ = receiver
    tty_reader = TtyReader(link)
    try:
        yield tty_reader
    finally:
        tty_reader.close()


# ---- The browser ------------------------------------------------------------------------------


@pytest.fixture
def browser():
    """Headless Chromium through chromedriver; quit (both processes ended) in teardown."""
    require(webdriver is not None, "selenium is not installed (scripts/install-deps --test)")
    require(CHROMIUM and CHROMEDRIVER,
            "chromium and chromium-driver are not installed (scripts/install-deps --test)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(argument)
    service = Service(CHROMEDRIVER)
    driver = webdriver.Chrome(options=options, service=service)
    try:
        driver.set_page_load_timeout(30)
        driver.set_script_timeout(10)
        yield driver
    finally:
        try:
            driver.quit()
        finally:
            service.stop()


@pytest.fixture
def panel(receiver, browser):
    """The panel open on the plain map (offline: tiles cannot load here); yields the driver."""
    _, url = receiver
    browser.get(url + "&map=plain")
    wait_until(lambda: position_on_page(browser), 15, "a position in #position")
    return browser


def position_on_page(driver):
    """#position as (latitude, longitude), or None before the first epoch."""
    text = driver.find_element(By.ID, "position").text
    found = re.fullmatch(r"(-?\d+\.\d{7}), (-?\d+\.\d{7})", text)
    return (float(found.group(1)), float(found.group(2))) if found else None


def satellites_on_page(driver):
    """The satellites of #skyplot: [(prn, used)], one per element with data-prn, read at once
    (the page updates the plot every epoch)."""
    return [(int(prn), used) for prn, used in driver.execute_script(
        "return [...document.querySelectorAll('#skyplot [data-prn]')]"
        ".map((e) => [e.getAttribute('data-prn'), e.getAttribute('data-used')])")]


def sees_within_two_epochs(reader, latitude, longitude, since):
    """Fails unless the tty shows the position in an epoch at most two epochs after `since`."""
    last_epoch = utc_seconds_of_day(since) + 2 * EPOCH_SECONDS + 0.05
    seen = []
    deadline = time.monotonic() + 2 * EPOCH_SECONDS + 3
    while time.monotonic() < deadline:
        epoch, lat, lon = reader.gga(max(0.1, deadline - time.monotonic()))
        seen.append((epoch, round(lat, 6), round(lon, 6)))
        if abs(lat - latitude) < 2e-6 and abs(lon - longitude) < 2e-6:
            assert epoch <= last_epoch, "the position came in epoch %s, later than %s: %s" % (
                epoch, last_epoch, seen)
            return
    pytest.fail("the tty never showed %.7f, %.7f; GGAs: %s" % (latitude, longitude, seen))


# ---- The tests --------------------------------------------------------------------------------


def test_the_page_shows_the_emitted_position_and_the_satellites_of_the_last_gsv(panel, reader):
    reader.drain()
    _, latitude, longitude = reader.gga()
    shown = position_on_page(panel)
    # GGA gives minutes to 4 or 5 decimals: 2e-6 degrees is 0.2 m.
    assert abs(shown[0] - latitude) < 2e-6 and abs(shown[1] - longitude) < 2e-6, (shown, latitude)
    assert abs(shown[0] - START[0]) < 1e-7 and abs(shown[1] - START[1]) < 1e-7

    # The sky can change between the cycle read and the page's last epoch: a few tries.
    for _ in range(5):
        cycle = reader.gsv_cycle()
        on_page = satellites_on_page(panel)
        if sorted(prn for _, prn in cycle) == sorted(prn for prn, _ in on_page):
            break
    assert sorted(prn for _, prn in cycle) == sorted(prn for prn, _ in on_page), (cycle, on_page)
    assert on_page, "no satellite on the sky plot"
    assert {used for _, used in on_page} <= {"true", "false"}
    used = reader.gsa_used()
    assert sorted(prn for prn, flag in on_page if flag == "true") == used, (used, on_page)


def test_the_move_form_moves_the_receiver_within_two_epochs(panel, reader):
    target = (48.858222, 2.2945)
    for hook, value in zip(("lat", "lon"), target):
        field = panel.find_element(By.ID, hook)
        field.clear()
        field.send_keys(str(value))
    reader.drain()
    since = time.time()
    panel.find_element(By.CSS_SELECTOR, "#move button[type=submit]").click()

    sees_within_two_epochs(reader, *target, since)
    wait_until(lambda: position_on_page(panel) == target, 5, "#position to show the target")
    assert panel.find_element(By.ID, "error").text == ""


def test_a_click_on_the_map_moves_the_receiver_there_within_two_epochs(panel, reader):
    for hook in ("lat", "lon"):
        panel.find_element(By.ID, hook).clear()
    # The map takes clicks once it has drawn the receiver (it fits itself around it first).
    wait_until(lambda: panel.find_elements(By.CSS_SELECTOR, "#map .receiver"), 5, "the receiver")
    before = position_on_page(panel)
    map_element = panel.find_element(By.ID, "map")
    reader.drain()
    since = time.time()
    # Up and right of the map's centre, where the receiver stands: north-east of it.
    ActionChains(panel).move_to_element_with_offset(map_element, 120, -80).click().perform()

    # The page fills #lat and #lon with where the click sent the receiver once it is accepted.
    target = wait_until(lambda: target_in_form(panel), 5, "#lat and #lon after the click")
    assert target[0] > before[0] and target[1] > before[1], (before, target)
    sees_within_two_epochs(reader, *target, since)
    assert panel.find_element(By.ID, "error").text == ""


def test_the_velocity_form_moves_the_receiver_along_a_track_and_the_page_draws_it(panel, reader):
    for hook, value in (("speed-input", "20"), ("course-input", "60")):
        field = panel.find_element(By.ID, hook)
        field.clear()
        field.send_keys(value)
    panel.find_element(By.CSS_SELECTOR, "#velocity button[type=submit]").click()

    wait_until(lambda: panel.find_element(By.ID, "speed").text == "20.00 m/s", 5, "#speed 20")
    reader.drain()
    _, first_lat, first_lon = reader.gga()
    _, lat, lon = reader.gga()
    # 20 m a second at 60°: north-east, about 10 m north and 17 m east an epoch.
    assert 5e-5 < lat - first_lat < 1.5e-4 and 1.5e-4 < lon - first_lon < 3.5e-4, (lat, lon)
    wait_until(lambda: panel.find_elements(By.CSS_SELECTOR, "#map path.track-line"), 5,
               "the track on the map")
    wait_until(lambda: position_on_page(panel)[1] > START[1] + 5e-4, 10, "a few epochs of track")

    os.makedirs(os.path.dirname(SCREENSHOT), exist_ok=True)
    assert panel.save_screenshot(SCREENSHOT)


def target_in_form(driver):
    values = [driver.find_element(By.ID, hook).get_attribute("value") for hook in ("lat", "lon")]
    return tuple(map(float, values)) if all(values) else None


def test_a_refused_move_shows_the_error_and_changes_nothing(panel, reader):
    field = panel.find_element(By.ID, "lat")
    field.clear()
    field.send_keys("91")
    panel.find_element(By.ID, "lon").send_keys("0")
    panel.find_element(By.CSS_SELECTOR, "#move button[type=submit]").click()

    error = wait_until(lambda: panel.find_element(By.ID, "error").text, 5, "#error")
    assert "lat" in error, error
    assert panel.find_element(By.ID, "lat").get_attribute("value") == "91"
    reader.drain()
    _, latitude, longitude = reader.gga()
    assert abs(latitude - START[0]) < 2e-6 and abs(longitude - START[1]) < 2e-6
    assert position_on_page(panel) == START[:2]


def test_the_fault_form_silences_the_tty_for_its_duration(panel, reader):
    Select(panel.find_element(By.ID, "fault")).select_by_value("silence")
    duration = panel.find_element(By.ID, "duration")
    duration.clear()
    duration.send_keys("2")
    reader.drain()
    before = reader.gga()[0]  # just after an epoch: the silence starts at the next one
    panel.find_element(By.CSS_SELECTOR, "#inject button[type=submit]").click()

    # Epochs come every second; two seconds of silence leave out two: the GGAs' own UTC times
    # jump by three seconds. (Wall-clock gaps between reads shrank by however long the click
    # took on a loaded machine: the rest of the epoch waited in the buffer, 2.45 s was read.)
    times, last = [before], time.monotonic()
    deadline = last + 6
    while time.monotonic() < deadline:
        line = reader.sentence(deadline - time.monotonic())
        if line is None:
            break
        last = time.monotonic()
        fields = line.split(",")
        if fields[0].endswith("GGA") and fields[1]:
            times.append(seconds_of_day(fields[1]))
    gaps = [later - earlier for earlier, later in zip(times, times[1:])]
    assert gaps and 2.5 < max(gaps) < 4, "GGA times %s" % times
    assert time.monotonic() - last < 1.5, "the tty stayed silent after the fault"
    assert panel.find_element(By.ID, "error").text == ""


ROUTE = os.path.join(REPO, "Tests", "Fixtures", "routes", "route.gpx")
ROUTE_START = (45.2787641494, 13.726695478)


def load_route(panel):
    """Loads route.gpx through the route form, looping (so it starts at its first point)."""
    panel.find_element(By.ID, "route-file").send_keys(ROUTE)
    panel.find_element(By.ID, "route-speed").send_keys("30")
    panel.find_element(By.ID, "route-loop").click()
    panel.find_element(By.CSS_SELECTOR, "#route button[type=submit]").click()


def test_route_playback_loads_pauses_plays_and_seeks(panel, reader):
    load_route(panel)
    wait_until(lambda: abs(position_on_page(panel)[0] - ROUTE_START[0]) < 0.01, 5,
               "#position on the route")
    reader.drain()
    _, lat, lon = reader.gga()
    assert abs(lat - ROUTE_START[0]) < 0.01 and abs(lon - ROUTE_START[1]) < 0.01, (lat, lon)

    panel.find_element(By.ID, "playpause").click()
    wait_until(lambda: panel.find_element(By.ID, "playpause").text == "Play", 5, "Play")
    reader.drain()
    reader.gga()  # the pause takes effect in the next epoch
    held = reader.gga()[1:]
    assert reader.gga()[1:] == held, "the receiver moved while paused"

    panel.find_element(By.ID, "playpause").click()
    wait_until(lambda: panel.find_element(By.ID, "playpause").text == "Pause", 5, "Pause")
    reader.drain()
    reader.gga()
    assert reader.gga()[1:] != held, "the receiver did not go on after play"

    # The slider as a person drags it: a new value, then `change`. 90 s at 30 m/s is 2.7 km on.
    panel.execute_script(
        "const seek = document.getElementById('seek'); seek.value = '90';"
        "seek.dispatchEvent(new Event('input')); seek.dispatchEvent(new Event('change'));")
    wait_until(lambda: panel.find_element(By.ID, "seek-value").text == "90 s", 5, "90 s")
    reader.drain()
    reader.gga()
    _, lat, lon = reader.gga()
    metres = 111320 * max(abs(lat - held[0]), abs(lon - held[1]) * 0.7)
    assert metres > 1000, "the seek moved the receiver %.0f m only" % metres
    assert panel.find_element(By.ID, "error").text == ""


def metres_driven(reader, epochs=3):
    """The path length between the next `epochs` GGA positions (2 s at 1 Hz), metres."""
    fixes = [reader.gga() for _ in range(epochs)]
    total = 0.0
    for (_, lat0, lon0), (_, lat1, lon1) in zip(fixes, fixes[1:]):
        east = (lon1 - lon0) * math.cos(math.radians(lat0))
        total += 111320 * math.hypot(lat1 - lat0, east)
    return total


def set_scale(panel, factor):
    """Types `factor` over #scale's text and leaves it, as a person does (the change sends
    `scale`)."""
    scale = panel.find_element(By.ID, "scale")
    scale.send_keys(Keys.CONTROL, "a")
    scale.send_keys(str(factor), Keys.TAB)


def test_the_time_scale_plays_the_route_faster_on_the_tty(panel, reader):
    load_route(panel)
    wait_until(lambda: abs(position_on_page(panel)[0] - ROUTE_START[0]) < 0.01, 5,
               "#position on the route")
    reader.drain()
    reader.gga()
    real = metres_driven(reader)
    assert real < 80, "%.0f m in 2 s at 30 m/s" % real

    set_scale(panel, 10)
    wait_until(lambda: panel.find_element(By.ID, "scale").get_attribute("data-accepted") == "10",
               5, "scale 10 accepted")
    assert panel.find_element(By.ID, "error").text == ""
    reader.drain()
    reader.gga()  # the change takes effect in the next epoch
    fast = metres_driven(reader)
    # 30 m/s ten times as fast: at most 600 m in 2 s, less through the route's corners.
    assert 150 < fast < 700 and fast > 4 * real, "%.0f m in 2 s at scale 10 (%.0f at 1)" % (
        fast, real)


def test_a_refused_time_scale_shows_the_error_and_keeps_the_scale(panel):
    load_route(panel)
    for factor in (0, 1000):
        set_scale(panel, factor)
        expected = "scale: 'factor' expected a number in 0.1...100, got %d" % factor
        wait_until(lambda: expected in panel.find_element(By.ID, "error").text, 5,
                   "#error: " + expected)
        wait_until(lambda: panel.find_element(By.ID, "scale").get_attribute("value") == "1", 5,
                   "#scale back to 1")


@pytest.mark.parametrize("source", [["--route", ROUTE, "--speed", "30", "--once"]])
def test_the_seek_slider_spans_the_route_and_follows_it(panel):
    seek = panel.find_element(By.ID, "seek")
    wait_until(lambda: float(seek.get_attribute("max")) != 600, 10, "the slider sized to the route")
    seconds = float(seek.get_attribute("max"))
    assert 30 < seconds < 10000, seconds
    wait_until(lambda: float(seek.get_attribute("value")) > 0, 10, "the slider following the route")


@pytest.mark.parametrize("source", [["--route", ROUTE, "--speed", "30"]])
def test_the_route_of_run_is_drawn_with_every_vertex(panel):
    # The plain map redraws its SVG on every epoch, so the path is read in one script call
    # (an element found first and read after may already be replaced).
    line = wait_until(lambda: panel.execute_script(
        "const path = document.querySelector('#map path.route-line');"
        "return path && path.getAttribute('d');"), 5, "the route on the map")
    # route.gpx has 55 points: a move and 54 lines.
    assert line.count("L") == 54


def test_a_route_loaded_from_the_page_is_drawn_on_the_map(panel):
    load_route(panel)
    wait_until(lambda: panel.find_elements(By.CSS_SELECTOR, "#map path.route-line"), 5,
               "the route on the map")


def test_an_override_without_a_passthrough_is_refused_with_the_command_layers_error(panel):
    panel.find_element(By.CSS_SELECTOR, "#override-form button[type=submit]").click()
    error = wait_until(lambda: panel.find_element(By.ID, "error").text, 5, "#error")
    assert "passthrough" in error, error
    assert panel.find_element(By.ID, "override").text == "none"


def test_with_config_the_device_selector_steers_the_device_it_shows(tmp_path, browser):
    paris = (48.858222, 2.2945)
    config = tmp_path / "fleet.json"
    config.write_text(json.dumps({"devices": [
        {"link": str(tmp_path / "gps0"), "position": list(START), "rate": RATE_HZ},
        {"link": str(tmp_path / "gps1"), "position": list(paris), "rate": RATE_HZ},
    ]}))
    with panel_run(tmp_path, "--config", str(config)) as url:
        browser.get(url + "&map=plain")
        wait_until(lambda: position_on_page(browser) == START[:2], 15, "device 0's position")
        selector = Select(browser.find_element(By.ID, "device"))
        assert browser.find_element(By.ID, "device").is_displayed()
        assert [option.get_attribute("value") for option in selector.options] == ["0", "1"]

        selector.select_by_value("1")
        wait_until(lambda: position_on_page(browser) == paris, 5, "device 1's position")
        browser.find_element(By.ID, "fix-none").click()
        wait_until(lambda: browser.find_element(By.ID, "fix").text == "none", 5, "#fix none")

        selector.select_by_value("0")
        wait_until(lambda: position_on_page(browser) == START[:2], 5, "device 0 again")
        wait_until(lambda: browser.find_element(By.ID, "fix").text == "3d", 5, "#fix 3d")
        # Two more epochs of device 0 on the page, and still a fix.
        epoch = int(browser.find_element(By.ID, "epoch").text)
        wait_until(lambda: int(browser.find_element(By.ID, "epoch").text) >= epoch + 2, 5,
                   "two more epochs")
        assert browser.find_element(By.ID, "fix").text == "3d"


LEAFLET = "/usr/share/javascript/leaflet/leaflet.js"


def test_without_map_plain_the_page_loads_debians_leaflet(receiver, browser):
    require(os.path.exists(LEAFLET), "libjs-leaflet is not installed (scripts/install-deps --test)")
    _, url = receiver
    browser.get(url)
    wait_until(lambda: position_on_page(browser), 15, "a position in #position")
    # Leaflet comes from /leaflet/leaflet.js; offline its tiles fail and the page falls back to
    # the plain map, online it shows the tiles: either way the receiver is on the map.
    wait_until(lambda: browser.execute_script("return !!window.L"), 10, "Leaflet to load")
    receiver_on_map = "#map .leaflet-marker-icon, #map svg.plain-map .receiver"
    wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, receiver_on_map), 10,
               "the receiver on the map")
    assert browser.find_element(By.ID, "error").text == ""


# ---- gpsd -------------------------------------------------------------------------------------


@pytest.fixture
def gpsd(receiver, tmp_path):
    """The real gpsd on the receiver's link, on a free port; yields a reader of its reports."""
    require(GPSD, "gpsd is not installed (scripts/install-deps --test)", "MOCKGPS_REQUIRE_GPSD")
    link, _ = receiver
    port = free_port()
    process = subprocess.Popen(
        [GPSD, "-N", "-n", "-F", str(tmp_path / "gpsd.sock"), "-S", str(port), link],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def connect():
            try:
                return socket.create_connection(("127.0.0.1", port), timeout=1)
            except OSError:
                return None
        connection = wait_until(connect, 5, "gpsd on port %d" % port)
        with connection:
            connection.sendall(b'?WATCH={"enable":true,"json":true}\n')
            with connection.makefile("rb") as lines:
                yield lambda matches, seconds, what: tpv(connection, lines, matches, seconds, what)
    finally:
        stop(process)


def tpv(connection, lines, matches, seconds, what):
    """The first TPV report of gpsd for which `matches(report)` holds, within `seconds`."""
    deadline = time.monotonic() + seconds
    seen = []
    while time.monotonic() < deadline:
        connection.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            line = lines.readline()
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


def test_the_no_fix_button_makes_gpsd_report_no_fix(panel, gpsd):
    gpsd(lambda report: report.get("mode") == 3, 15, "a 3D fix")

    panel.find_element(By.ID, "fix-none").click()
    gpsd(lambda report: report.get("mode") == 1, 2 * EPOCH_SECONDS + 3, "mode 1 (no fix)")
    wait_until(lambda: panel.find_element(By.ID, "fix").text == "none", 5, "#fix none")

    panel.find_element(By.ID, "fix-3d").click()
    gpsd(lambda report: report.get("mode") == 3, 2 * EPOCH_SECONDS + 3, "mode 3 again")
    assert panel.find_element(By.ID, "error").text == ""
