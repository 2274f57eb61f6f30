#!/usr/bin/env python3
"""Builds legacy UBX-CFG settings with pyubx2 and reads CFG-VALGET answers with it, so that a
test checks the ZED-F9P's legacy messages against its configuration keys with an independent
layout of both.

Usage: legacy_keys_oracle.py FILE encode|decode
- encode: FILE holds JSON [{"message": "CFG-ANT", "fields": {...}}, ...]; prints
  {"frames": ["hex", ...]}, each message as pyubx2 builds a SET from its field names.
- decode: FILE holds a UBX byte stream (receiver output, checksums validated); prints
  {"errors": [...], "keys": {"CFG_ODO_PROFILE": 3, ...}} with every item of every CFG-VALGET
  answer by pyubx2's name (X types and strings as hex).
"""
import io
import json
import sys

from pyubx2 import GET, SET, UBX_PROTOCOL, VALCKSUM, UBXMessage, UBXReader


def plain(value):
    return value.hex() if isinstance(value, bytes) else value


def encode(requests):
    frames = []
    for request in requests:
        message = UBXMessage("CFG", request["message"], SET, **request["fields"])
        frames.append(message.serialize().hex())
    return {"frames": frames}


def decode(data):
    errors, keys = [], {}
    reader = UBXReader(io.BytesIO(data), protfilter=UBX_PROTOCOL, validate=VALCKSUM,
                       quitonerror=1, errorhandler=lambda error: errors.append(str(error)),
                       msgmode=GET)
    for raw, parsed in reader:
        if parsed is None:
            errors.append(f"unparsed bytes {raw[:16].hex()}")
        elif parsed.identity == "CFG-VALGET":
            for name, value in vars(parsed).items():
                if name.startswith("CFG_"):
                    keys[name] = plain(value)
    return {"errors": errors, "keys": keys}


def main():
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    if sys.argv[2] == "encode":
        print(json.dumps(encode(json.loads(data))))
    else:
        print(json.dumps(decode(data)))


if __name__ == "__main__":
    main()
