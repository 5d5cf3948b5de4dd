#!/usr/bin/env python3
"""Checks backtrace lines (stdin) against the binary's own symbol table, so
golden output depends neither on load addresses nor on code layout:
  " 0xADDR : SYM+0xOFF/0xSIZE [BINARY]" -> "SYM ok" when SIZE is the symbol's
     size and ADDR - OFF - its value is one bias for every frame of a stack
     (0 when BINARY is not PIE, a page-aligned load address when it is);
     the first frame of a stack shows its offset ("inner+0x0 ok");
  a frame in another file ("[/lib/...]")  -> "library frame";
  "0xA 0xB ..." (ubacktrace())            -> "N addresses";
  "--" starts a new stack; anything else is copied."""
import os, re, subprocess, sys

binary = os.path.realpath(sys.argv[1])
pie = b"DYN" in subprocess.run(["readelf", "-h", binary], capture_output=True).stdout
symbols = {}
for line in subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True).stdout.splitlines():
    fields = line.split()
    if len(fields) == 4:
        symbols[fields[3]] = (int(fields[0], 16), int(fields[1], 16))

frame = re.compile(r"^ 0x([0-9a-f]+) : (\S+)\+0x([0-9a-f]+)/0x([0-9a-f]+) \[(.*)\]$")
first, bias_seen = True, None
for line in sys.stdin.read().splitlines():
    m = frame.match(line)
    if m:
        address, name, offset, size, path = int(m[1], 16), m[2], int(m[3], 16), int(m[4], 16), m[5]
        if path != binary:
            print("library frame")
            continue
        problem = None
        if name not in symbols:
            problem = "unknown symbol"
        else:
            bias = address - offset - symbols[name][0]
            if size != symbols[name][1]:
                problem = "size 0x%x, the symbol has 0x%x" % (size, symbols[name][1])
            elif not pie and bias != 0:
                problem = "bias 0x%x in a non-PIE binary" % bias
            elif pie and (bias == 0 or bias % 4096):
                problem = "bias 0x%x is no load address" % bias
            elif bias_seen is not None and bias != bias_seen:
                problem = "bias differs between frames"
            bias_seen = bias
        if problem:
            print(line + " -- " + problem)
        else:
            print(("%s+0x%x" % (name, offset) if first else name) + " ok")
        first = False
    elif re.match(r"^ 0x[0-9a-f]+ \[.*\]$", line):
        print("library frame")
    elif re.match(r"^0x[0-9a-f]+( 0x[0-9a-f]+)*$", line):
        print("%d addresses" % len(line.split()))
    else:
        if line == "--":
            first, bias_seen = True, None
        print(line)
