#!/usr/bin/python3
# Runs a command under the system call filter that a systemd unit names, as systemd would apply it where no
# systemd runs: every call outside the unit's SystemCallFilter= kills the process (systemd's own default), so a
# test that passes proves the unit cannot kill the service in use. Usage: as-the-unit-runs.py UNIT -- COMMAND...
import os, subprocess, sys
import seccomp

unit, command = sys.argv[1], sys.argv[sys.argv.index("--") + 1:]
allowed = []
for line in open(unit):
    if line.startswith("SystemCallFilter="):
        entries = line.split("=", 1)[1].split()
        if entries and entries[0].startswith("~"):
            sys.exit("this check reads allow-lists only: " + line.strip())
        allowed += entries

def expand(name, seen):
    if not name.startswith("@"):
        return {name}
    if name in seen:
        return set()
    seen.add(name)
    listed = subprocess.run(["systemd-analyze", "syscall-filter", name], check=True, capture_output=True, text=True)
    calls = set()
    for entry in listed.stdout.splitlines()[1:]:
        entry = entry.strip()
        if entry and not entry.startswith("#"):
            calls |= expand(entry, seen)
    return calls

calls, seen = set(), set()
for entry in allowed:
    calls |= expand(entry, seen)
rules = seccomp.SyscallFilter(defaction=seccomp.KILL_PROCESS)
for call in sorted(calls):
    try:
        rules.add_rule(seccomp.ALLOW, call)
    except (RuntimeError, ValueError):
        pass  # not a call of this architecture
rules.load()
os.execv(command[0], command)
