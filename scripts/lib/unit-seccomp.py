#!/usr/bin/env python3
"""Runs a command under the seccomp filters systemd makes of a unit's settings, through
libseccomp (ctypes), one filter a setting as systemd loads them (the kernel applies the
strictest answer):

    unit-seccomp.py [--families "AF_UNIX AF_INET"] [--syscalls "@system-service ..."]
                    [--deny-write-execute] -- COMMAND ARGS...

--families       RestrictAddressFamilies=: socket() with any other family fails with
                 EAFNOSUPPORT; socketpair() and the rest are left alone.
--syscalls       SystemCallFilter= (an allow list): any other system call kills the process
                 with SIGSYS, as systemd does without SystemCallErrorNumber=. Groups (@name)
                 are expanded as `systemd-analyze syscall-filter` lists them; @default is
                 always allowed.
--deny-write-execute
                 MemoryDenyWriteExecute=: mmap() of memory both writable and executable,
                 mprotect()/pkey_mprotect() adding execution and shmat(SHM_EXEC) fail with
                 EPERM.
"""
import argparse
import ctypes
import errno
import os
import socket
import subprocess
import sys

SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_ACT_KILL_PROCESS = 0x80000000
SCMP_CMP_EQ = 4
SCMP_CMP_MASKED_EQ = 7
PROT_WRITE, PROT_EXEC = 0x2, 0x4
SHM_EXEC = 0o100000


def scmp_act_errno(code):
    return 0x00050000 | (code & 0xFFFF)


class ArgumentComparison(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int),
                ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


library = ctypes.CDLL("libseccomp.so.2", use_errno=True)
library.seccomp_init.restype = ctypes.c_void_p
library.seccomp_init.argtypes = [ctypes.c_uint32]
library.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
library.seccomp_rule_add_array.argtypes = [
    ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint,
    ctypes.POINTER(ArgumentComparison)]
library.seccomp_load.argtypes = [ctypes.c_void_p]
library.seccomp_release.argtypes = [ctypes.c_void_p]


def fail(message):
    sys.exit(f"unit-seccomp: {message}")


def syscall_number(name):
    number = library.seccomp_syscall_resolve_name(name.encode())
    return None if number < 0 else number


def add_rule(context, action, number, *comparisons):
    array = (ArgumentComparison * max(len(comparisons), 1))(*comparisons)
    if library.seccomp_rule_add_array(context, action, number, len(comparisons), array) != 0:
        fail(f"cannot add a rule for system call {number}")


def load(context):
    if library.seccomp_load(context) != 0:
        fail("cannot load a filter")
    library.seccomp_release(context)


def syscall_groups():
    """Every group `systemd-analyze syscall-filter` lists, with its members as written."""
    text = subprocess.run(["systemd-analyze", "syscall-filter", "--no-pager"],
                          capture_output=True, text=True, check=True).stdout
    groups, current = {}, None
    for line in text.splitlines():
        if line.startswith("@"):
            current = groups.setdefault(line.strip(), [])
        elif line.startswith(" ") and current is not None:
            item = line.strip()
            if item and not item.startswith("#"):
                current.append(item)
        else:
            current = None
    return groups


def expand(names, groups, seen=None):
    seen = set() if seen is None else seen
    calls = set()
    for name in names:
        if name.startswith("@"):
            if name in seen:
                continue
            seen.add(name)
            if name not in groups:
                fail(f"unknown system call group {name}")
            calls |= expand(groups[name], groups, seen)
        else:
            calls.add(name)
    return calls


def restrict_families(families):
    allowed = {getattr(socket, name) for name in families}
    context = library.seccomp_init(SCMP_ACT_ALLOW)
    number = syscall_number("socket")
    # AF_MAX is 46 on Linux 6.x; every family below 64 but the allowed ones is refused.
    for family in range(64):
        if family not in allowed:
            add_rule(context, scmp_act_errno(errno.EAFNOSUPPORT), number,
                     ArgumentComparison(0, SCMP_CMP_EQ, family, 0))
    load(context)


def allow_syscalls(calls):
    context = library.seccomp_init(SCMP_ACT_KILL_PROCESS)
    for call in sorted(calls):
        number = syscall_number(call)
        if number is not None:
            add_rule(context, SCMP_ACT_ALLOW, number)
    load(context)


def deny_write_execute():
    context = library.seccomp_init(SCMP_ACT_ALLOW)
    denied = scmp_act_errno(errno.EPERM)
    both = PROT_WRITE | PROT_EXEC
    for name in ("mmap", "mmap2"):
        number = syscall_number(name)
        if number is not None:
            add_rule(context, denied, number, ArgumentComparison(2, SCMP_CMP_MASKED_EQ, both, both))
    for name in ("mprotect", "pkey_mprotect"):
        number = syscall_number(name)
        if number is not None:
            add_rule(context, denied, number,
                     ArgumentComparison(2, SCMP_CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC))
    number = syscall_number("shmat")
    if number is not None:
        add_rule(context, denied, number,
                 ArgumentComparison(2, SCMP_CMP_MASKED_EQ, SHM_EXEC, SHM_EXEC))
    load(context)


def main():
    separator = sys.argv.index("--")
    parser = argparse.ArgumentParser()
    parser.add_argument("--families")
    parser.add_argument("--syscalls")
    parser.add_argument("--deny-write-execute", action="store_true")
    options = parser.parse_args(sys.argv[1:separator])
    command = sys.argv[separator + 1:]
    # systemd-analyze runs before any filter holds.
    calls = expand(["@default"] + options.syscalls.split(), syscall_groups()) \
        if options.syscalls else None
    if options.families:
        restrict_families(options.families.split())
    if options.deny_write_execute:
        deny_write_execute()
    if calls is not None:
        allow_syscalls(calls)
    os.execvp(command[0], command)


main()
