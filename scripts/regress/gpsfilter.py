"""gpsd's regress-driver normalisation (GPSFILTER) and its comparison with a `.chk` file.

The filter is the driver's own sed command, run by sed with LANG unset as the driver runs it,
so that both tools' captures are normalised by exactly the same program.
"""
import os
import subprocess

GPSFILTER = [
    "sed", "-e", "/^gpsd:/d", "-e", "/^gpsfake/d", "-e", "/GPS-DATA/d", "-e", "/WATCH/d",
    "-e", "/DEVICE/d", "-e", "/VERSION/d", "-e", 's/,"device":[^,}]*//',
]


def c_locale():
    """The environment without LANG (sed may choke on binary data otherwise, says the driver)."""
    env = dict(os.environ)
    env.pop("LANG", None)
    env["LC_ALL"] = "C"
    return env


def normalise(raw):
    """`raw` (bytes gpsd's client printed) after GPSFILTER."""
    return subprocess.run(
        GPSFILTER, input=raw, stdout=subprocess.PIPE, env=c_locale(), check=True,
        timeout=60).stdout


def compare(log, output, out_path, diff_path):
    """Writes `output` to `out_path`, diffs it with LOG.chk like the driver (`diff -ub`) into
    `diff_path`; True when they agree. An empty capture fails, as in the driver."""
    with open(out_path, "wb") as f:
        f.write(output)
    diff = subprocess.run(
        ["diff", "-ub", log + ".chk", out_path], stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, env=c_locale(), timeout=60).stdout
    if diff and not output:
        diff = b" Output missing for " + log.encode() + b"\n"
    if diff:
        with open(diff_path, "wb") as f:
            f.write(diff)
        return False
    if os.path.exists(diff_path):
        os.unlink(diff_path)
    return True
