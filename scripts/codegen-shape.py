#!/usr/bin/env python3
"""The shape of src/codegen, measured the same way each time (issue 16).

Usage: scripts/codegen-shape.py [--check] [BUILD_DIR]   (default: build)

--check: exit 1 when the files call each other in a cycle (ctest's
shape/codegen_layers runs it so, after the build).

- call cycle: a file calls another when its object has an undefined symbol
  the other defines (nm); the cycle is the largest strongly connected
  component of that graph, listed with its files (then any smaller ones);
- raw LLVMBuild* calls in src/codegen/*.c outside ir.c (each occurrence);
- two-block branches built by hand: LLVMBuildCondBr outside ir.c;
- struct codegen's fields (each declarator of codegen_internal.h's struct).
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARGS = [a for a in sys.argv[1:] if a != "--check"]
CHECK = "--check" in sys.argv[1:]
BUILD = ARGS[0] if ARGS else os.path.join(ROOT, "build")
SRC = os.path.join(ROOT, "src", "codegen")


def objects():
    # CMake's place for them first: a recursive walk of a large build tree is slow
    found = glob.glob(os.path.join(BUILD, "CMakeFiles", "*", "src", "codegen", "*.c.o")) or \
        glob.glob(os.path.join(BUILD, "**", "src", "codegen", "*.c.o"), recursive=True)
    by_file = {}
    for path in found:
        name = os.path.basename(path)[:-len(".c.o")]
        if os.path.exists(os.path.join(SRC, name + ".c")):   # not a renamed file's stale object
            by_file.setdefault(name, path)
    return by_file


def symbols(objs):
    """{file: (defined, undefined)} from one nm run over every object."""
    names = {path: name for name, path in objs.items()}
    out = subprocess.run(["nm", *objs.values()], check=True, capture_output=True, text=True).stdout
    result, current = {}, None
    for line in out.splitlines():
        if line.endswith(":") and line[:-1] in names:
            current = result.setdefault(names[line[:-1]], (set(), set()))
            continue
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            current[1].add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBR":
            current[0].add(parts[2])
    return result


def cycles(graph):
    index, low, on_stack, stack, sccs = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                scc.append(w)
                if w == v:
                    break
            sccs.append(scc)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted((sorted(s) for s in sccs if len(s) > 1), key=len, reverse=True)


def main():
    objs = objects()
    if not objs:
        sys.exit(f"no codegen objects under {BUILD}: build first")
    syms = symbols(objs)
    owner = {}
    for name, (defined, _) in syms.items():
        for s in defined:
            owner[s] = name
    graph = {name: sorted({owner[s] for s in undefined if s in owner and owner[s] != name})
             for name, (_, undefined) in syms.items()}
    found = cycles(graph)
    cycle = found[0] if found else []
    print(f"call cycle: {len(cycle)} of {len(objs)} files: {' '.join(cycle) if cycle else '-'}")
    for other in found[1:]:
        print(f"other cycle: {' '.join(other)}")

    raw = branches = 0
    for path in sorted(glob.glob(os.path.join(SRC, "*.c"))):
        if os.path.basename(path) == "ir.c":
            continue
        text = open(path).read()
        raw += len(re.findall(r"\bLLVMBuild\w+\s*\(", text))
        branches += len(re.findall(r"\bLLVMBuildCondBr\b", text))
    print(f"raw LLVMBuild* calls outside ir.c: {raw}")
    print(f"two-block branches built by hand (LLVMBuildCondBr outside ir.c): {branches}")

    header = open(os.path.join(SRC, "codegen_internal.h")).read()
    body = re.search(r"^struct codegen \{\n(.*?)^\};", header, re.S | re.M).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    fields = 0
    for decl in body.split(";"):
        decl = re.sub(r"\[[^]]*\]|\([^)]*\)", "", decl).strip()
        if decl:
            fields += decl.count(",") + 1
    print(f"struct codegen fields: {fields}")
    if CHECK and found:
        sys.exit("codegen files call each other in a cycle: break it with a dispatch point or by moving the "
                 "shared piece a layer down (docs/ARCHITECTURE.md, Codegen)")


main()
