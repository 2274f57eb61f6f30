"""A UBX capture as RTKLIB 2.4.3 b34 (Debian's) can read it: each Galileo RXM-SFRBX of eight
words, as the ZED-F9P sends an I/NAV page pair, gets a ninth word of zeros, which the decoder
does not read. b34's decode_enav skips frames shorter than nine words (`raw->len<44+off`, "E5b
I/NAV"), so it would decode no Galileo ephemeris from an F9P; later RTKLIB versions accept eight.
Everything else is copied byte for byte.
"""
import glob
import os
import shutil
import subprocess
import tempfile


# An approximate position for the RINEX observation header (ECEF x/y/z, m), which a navigation
# file does not print: given, convbin does not compute one (see `navigation_records`).
HEADER_POSITION = "6378137/0/0"


def checksum(body):
    a = b = 0
    for byte in body:
        a = (a + byte) & 0xFF
        b = (b + a) & 0xFF
    return bytes([a, b])


def padded_galileo_pages(data):
    """The capture with every eight-word Galileo RXM-SFRBX given a ninth, zero word."""
    output, index = bytearray(), 0
    while index < len(data):
        if data[index:index + 2] != b"\xb5\x62" or index + 6 > len(data):
            output.append(data[index])
            index += 1
            continue
        length = data[index + 4] | data[index + 5] << 8
        end = index + 8 + length
        frame = data[index:end]
        payload = frame[6:6 + length]
        if (frame[2:4] == b"\x02\x13" and length == 8 + 32 and payload[0] == 2
                and payload[4] == 8):
            payload = payload[:4] + bytes([9]) + payload[5:] + bytes(4)
            body = b"\x02\x13" + len(payload).to_bytes(2, "little") + payload
            frame = b"\xb5\x62" + body + checksum(body)
        output += frame
        index = end
    return bytes(output)


def readable_copy(path, folder):
    """Writes the capture at `path` as RTKLIB b34 reads it into `folder`; returns its path."""
    with open(path, "rb") as file:
        data = file.read()
    copy = os.path.join(folder, os.path.basename(path) + ".rtklib.ubx")
    with open(copy, "wb") as file:
        file.write(padded_galileo_pages(data))
    return copy


def navigation_records(path, folder, level, complains):
    """convbin's RINEX 3.04 navigation file of the UBX capture at `path`, made in `folder`.

    Traced, convbin 2.4.3 b34 as Debian builds it may crash once its first pass over the input
    has decoded every message (writing its station list): a run traced at `level` gives the
    decoders' complaints (the trace lines for which `complains` is true), an untraced one the
    RINEX file. Returns the oracle's fields (traceErrors, traced, convbin and, when no file
    came, convbinOutput) and the file's lines after its header.

    The crash is the trace of the station list (`dump_stas` in convrnx.c: 13 `%s` in its format,
    12 arguments), which reads whatever the 13th argument's place holds: here it crashed in 100
    runs of 100, but once, in a run beside CPU hogs, the traced run lived on into its second
    pass. That pass computes an approximate position for a RINEX observation header after each
    observation epoch until one gives it, unless a position is given, and the one placeholder
    observation of a navigation capture gives none: "point position error (lack of valid sats
    ns=5)", a complaint about the header, not the navigation messages. Both runs give it a
    position (`-hp`), which a navigation file does not print (the files are the same with and
    without it), so that step never runs.
    """
    result = {}
    traced = os.path.join(folder, "traced")
    os.mkdir(traced)
    subprocess.run(["convbin", "-r", "ubx", "-v", "3.04", "-hp", HEADER_POSITION, "-trace",
                    str(level), "-n", os.path.join(traced, "capture.nav"), path],
                   cwd=traced, capture_output=True, text=True, timeout=120)
    complaints = []
    for trace in glob.glob(os.path.join(traced, "*.trace")):
        with open(trace, errors="replace") as file:
            complaints += [line.strip() for line in file if complains(line)]
    result["traceErrors"] = complaints[:20]
    result["traced"] = bool(glob.glob(os.path.join(traced, "*.trace")))
    if complaints:
        # Kept for whoever reads the failure: the trace and the input it came from (a loaded
        # run once traced a complaint that no run alone shows).
        kept = tempfile.mkdtemp(prefix="mockgps-convbin-complaint-")
        for trace in glob.glob(os.path.join(traced, "*.trace")):
            shutil.copy(trace, kept)
        shutil.copy(path, kept)
        result["traceKept"] = kept
    navigation = os.path.join(folder, "capture.nav")
    converted = subprocess.run(["convbin", "-r", "ubx", "-v", "3.04", "-hp", HEADER_POSITION,
                                "-n", navigation, path],
                               cwd=folder, capture_output=True, text=True, timeout=120)
    result["convbin"] = converted.returncode
    body = []
    if os.path.exists(navigation):
        with open(navigation) as file:
            lines = file.read().splitlines()
        end = next((n for n, line in enumerate(lines) if "END OF HEADER" in line), -1)
        body = lines[end + 1:]
    else:
        result["convbinOutput"] = (converted.stdout + converted.stderr)[-2000:]
    return result, body
