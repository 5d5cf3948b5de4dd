#!/usr/bin/env python3
"""Compares a print_ubacktrace() (stdin) with gdb's backtrace at the same stop.
Usage: stack_gdb_check.py BREAKPOINT PROGRAM [ARG...]
Both run with address randomization off (tap under `setarch -R`, gdb by
default), so a frame is the same address in both. gdb breaks at the first
instruction of BREAKPOINT (`break *F`, where tap's probe is) and lists its
frames past main: each real frame by its pc, each inline frame (DWARF's
inlined scopes at the pc of the real frame holding it) by pc and name as
tap prints it (" 0x... : f (inlined) [file]"); its tail-call frames are
left out (gdb invents them from DWARF call sites, no unwinder sees them).
Prints each tap frame's function (or [file] when it has no symbol; "(inlined)"
after an inline frame) and "same as gdb (N frames)", or the first difference."""
import os, re, subprocess, sys, tempfile

breakpoint, program = sys.argv[1], sys.argv[2:]
frame = re.compile(r"^ 0x([0-9a-f]+)(?: : (\S+?)\+0x[0-9a-f]+/0x[0-9a-f]+ \[(.*)\]| \[(.*?)\+0x[0-9a-f]+\])?$")
inlined = re.compile(r"^ 0x([0-9a-f]+) : (\S+) \(inlined\) \[(.*)\]$")
tap = []
for line in sys.stdin.read().splitlines():
    m = inlined.match(line)
    if m:
        tap.append((int(m[1], 16), m[2]))
        print(m[2], "(inlined)")
        continue
    m = frame.match(line)
    if not m:
        print("not a frame:", line)
        continue
    tap.append((int(m[1], 16), None))
    print(m[2] if m[2] else "[%s]" % os.path.basename(m[4] or "?"))

with tempfile.NamedTemporaryFile("w", suffix=".py") as script:
    script.write("""
import gdb
gdb.execute("set backtrace past-main on")
gdb.execute("set backtrace limit 64")
gdb.execute("break *%s" % BREAK)
gdb.execute("run")
f = gdb.newest_frame()
while f is not None:
    if f.type() == gdb.NORMAL_FRAME:
        print("PC 0x%x" % f.pc())
    elif f.type() == gdb.INLINE_FRAME:
        print("PC 0x%x %s" % (f.pc(), f.name()))
    f = f.older()
gdb.execute("kill")
""".replace("BREAK", repr(breakpoint)))
    script.flush()
    out = subprocess.run(["gdb", "-nx", "-batch", "-ex", "source " + script.name, "--args"] + program,
                         capture_output=True, text=True, stdin=subprocess.DEVNULL).stdout
gdb = [(int(l.split()[1], 16), l.split()[2] if len(l.split()) > 2 else None)
       for l in out.splitlines() if l.startswith("PC 0x")]
gdb = gdb[:len(tap)] if len(tap) >= 20 else gdb   # tap keeps the innermost 20 (MAXBACKTRACE)
if tap == gdb:
    print("same as gdb (%d frames)" % len(gdb))
else:
    for i in range(max(len(tap), len(gdb))):
        t = "0x%x %s" % tap[i] if i < len(tap) else "-"
        g = "0x%x %s" % gdb[i] if i < len(gdb) else "-"
        if t != g:
            print("frame %d differs: tap %s, gdb %s" % (i, t, g))
            break
