"""gpsd's regression corpus through mockgps and through gpsfake in one run (scripts/gpsd-regress).

Each log runs once per tool (see rows.py); the rows run `--jobs` at a time. The summary names
the failing logs of each tool and the logs gpsfake passes that mockgps fails. Exit status 1 when
mockgps fails a log gpsfake passes or an NMEA log, else 0.
"""
import argparse
import concurrent.futures
import glob
import os
import shutil
import sys
import tempfile
import time

import rows
from corpus import LogInfo

TOOLS = ("mockgps", "gpsfake")


def arguments():
    parser = argparse.ArgumentParser(prog="gpsd-regress", description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=TOOLS, help="run one tool only")
    parser.add_argument("--jobs", type=int, default=2, help="rows at once (default 2)")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per row")
    parser.add_argument("--logs-dir", required=True, help="the corpus (*.log, *.log.chk)")
    parser.add_argument("--mockgps", help="the mockgps binary")
    parser.add_argument("--results", required=True, help="where outputs and diffs go")
    parser.add_argument("--via", choices=rows.VIAS, default="replay",
                        help="replay: gpsd reads mockgps's replay of each log (the default); "
                        "passthrough: a second mockgps passes that replay through "
                        "(--passthrough, --override off) and gpsd reads the second one")
    parser.add_argument("--quiet-seconds", type=float, default=1.5,
                        help="gpsd silent this long after mockgps exits ends a capture")
    parser.add_argument("--gpsfake-baseline", metavar="FILE",
                        help="with --only mockgps: the logs gpsfake fails, as a file written by "
                        "an earlier run with the same gpsd (first line: the gpsd version); a log "
                        "mockgps fails that is not listed is a regression, as if gpsfake had run")
    parser.add_argument("logs", nargs="*", help="logs (names in the corpus or paths)")
    options = parser.parse_args()
    if options.jobs < 1:
        parser.error("--jobs must be at least 1")
    if options.only != "gpsfake" and not options.mockgps:
        parser.error("--mockgps is needed unless --only gpsfake")
    if options.gpsfake_baseline and options.only != "mockgps":
        parser.error("--gpsfake-baseline goes with --only mockgps")
    return options


def gpsfake_failures(path):
    """The logs gpsfake failed in the run a baseline file records: one name a line after the
    first, which names the gpsd version it was recorded with."""
    with open(path, encoding="utf-8") as baseline:
        lines = [line.strip() for line in baseline if line.strip() and not line.startswith("#")]
    return lines[0], set(lines[1:])


def corpus_logs(options):
    if not options.logs:
        return sorted(glob.glob(os.path.join(options.logs_dir, "*.log")))
    paths = []
    for name in options.logs:
        path = name if os.path.exists(name) else os.path.join(options.logs_dir, name)
        if not os.path.exists(path) or not os.path.exists(path + ".chk"):
            sys.exit("gpsd-regress: %s: no such log with a .chk (in %s)" % (name, options.logs_dir))
        paths.append(os.path.abspath(path))
    return paths


def run_row(tool, log, options, scratch_root):
    scratch = tempfile.mkdtemp(prefix="%s-%s." % (tool, log.name), dir=scratch_root)
    # gpsd, run as root, drops to its own user before it opens the device link in there.
    os.chmod(scratch, 0o755)
    try:
        if tool == "gpsfake":
            return rows.gpsfake_row(log, options.results, scratch)
        return rows.mockgps_row(log, options.results, scratch, options.mockgps,
                                options.quiet_seconds, options.via)
    except Exception as error:  # a harness fault fails the row, named, not the run
        return rows.Row(tool, log, rows.FAIL, 0, "harness error: %r" % error)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def summary(tool, results):
    counts = {status: [r for r in results if r.status == status]
              for status in (rows.PASS, rows.FAIL, rows.SKIP)}
    line = "%s: %d passed, %d failed, %d skipped (%.0f s of rows)" % (
        tool, len(counts[rows.PASS]), len(counts[rows.FAIL]), len(counts[rows.SKIP]),
        sum(r.seconds for r in results))
    print(line)
    for row in counts[rows.PASS]:
        if row.note:
            print("  passed: %s (%s)" % (row.log.name, row.note))
    for status, label in ((rows.FAIL, "failed"), (rows.SKIP, "skipped")):
        if counts[status]:
            print("  %s: %s" % (label, " ".join(
                r.log.name + ("(%s)" % r.note if r.note else "") for r in counts[status])))


def main():
    options = arguments()
    started = time.monotonic()
    tools = (options.only,) if options.only else TOOLS
    logs = [LogInfo(path) for path in corpus_logs(options)]
    for tool in tools:
        os.makedirs(os.path.join(options.results, tool), exist_ok=True)
    scratch_root = tempfile.mkdtemp(prefix="gpsd-regress.")
    os.chmod(scratch_root, 0o755)
    by_tool = {tool: [] for tool in tools}
    try:
        with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
            futures = [pool.submit(run_row, tool, log, options, scratch_root)
                       for log in logs for tool in tools]
            for future in concurrent.futures.as_completed(futures):
                row = future.result()
                by_tool[row.tool].append(row)
                if options.verbose:
                    print("%s %s (%s) %.1f s%s" % (row.status, row.log.name, row.tool,
                                                    row.seconds,
                                                    " " + row.note if row.note else ""),
                          flush=True)
    finally:
        shutil.rmtree(scratch_root, ignore_errors=True)
    for tool in tools:
        by_tool[tool].sort(key=lambda r: r.log.name)
        summary(tool, by_tool[tool])
    regressions = []
    if len(tools) == 2:
        gpsfake_passes = {r.log.name for r in by_tool["gpsfake"] if r.status == rows.PASS}
        regressions = [r.log.name for r in by_tool["mockgps"]
                       if r.status == rows.FAIL and r.log.name in gpsfake_passes]
        print("logs gpsfake passes that mockgps fails: %s" % (" ".join(regressions) or "none"))
    elif options.gpsfake_baseline:
        version, gpsfake_fails = gpsfake_failures(options.gpsfake_baseline)
        regressions = [r.log.name for r in by_tool["mockgps"]
                       if r.status == rows.FAIL and r.log.name not in gpsfake_fails]
        print("logs gpsfake passes (%s, %s) that mockgps fails: %s" % (
            options.gpsfake_baseline, version, " ".join(regressions) or "none"))
    if "mockgps" in tools:
        nmea = [r for r in by_tool["mockgps"] if r.log.nmea_only and r.status != rows.SKIP]
        nmea_failed = [r.log.name for r in nmea if r.status == rows.FAIL]
        passed = len(nmea) - len(nmea_failed)
        print("mockgps NMEA-only logs: %d/%d passed (%.0f %%)" % (
            passed, len(nmea), 100.0 * passed / len(nmea) if nmea else 100.0))
        regressions += [name for name in nmea_failed if name not in regressions]
    if "mockgps" in tools and options.via != "replay":
        print("mockgps rows via %s" % options.via)
    print("results (outputs, diffs, stderr): %s" % options.results)
    print("gpsd-regress: %d logs in %.0f s" % (len(logs), time.monotonic() - started))
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
