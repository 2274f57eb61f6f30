#!/usr/bin/env python3
"""Runs a command with socket(2) limited to some address families, as systemd's
RestrictAddressFamilies= does: a seccomp filter (libseccomp, through ctypes) makes socket() with
any other family fail with EAFNOSUPPORT; socketpair() and the rest are left alone.

    restrict-families.py AF_UNIX [AF_INET ...] -- COMMAND ARGS...
"""
import ctypes
import errno
import os
import socket
import sys

SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_CMP_EQ = 4


def scmp_act_errno(code):
    return 0x00050000 | (code & 0xFFFF)


class ArgumentComparison(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int),
                ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


def main():
    separator = sys.argv.index("--")
    allowed = {getattr(socket, name) for name in sys.argv[1:separator]}
    command = sys.argv[separator + 1:]
    library = ctypes.CDLL("libseccomp.so.2", use_errno=True)
    library.seccomp_init.restype = ctypes.c_void_p
    library.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    library.seccomp_rule_add_array.argtypes = [
        ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint,
        ctypes.POINTER(ArgumentComparison)]
    library.seccomp_load.argtypes = [ctypes.c_void_p]
    context = library.seccomp_init(SCMP_ACT_ALLOW)
    number = library.seccomp_syscall_resolve_name(b"socket")
    # AF_MAX is 46 on Linux 6.x; every family below it but the allowed ones is refused.
    for family in range(0, 64):
        if family in allowed:
            continue
        comparison = ArgumentComparison(0, SCMP_CMP_EQ, family, 0)
        if library.seccomp_rule_add_array(
                context, scmp_act_errno(errno.EAFNOSUPPORT), number, 1,
                ctypes.byref(comparison)) != 0:
            sys.exit(f"restrict-families: cannot add the rule for family {family}")
    if library.seccomp_load(context) != 0:
        sys.exit("restrict-families: cannot load the filter")
    os.execvp(command[0], command)


main()
