#!/usr/bin/env python3
"""Lists, for each syscall alias SystemTap and tap both have (entry and
.return), the variables SystemTap's alias sets that tap's does not.

    python3 scripts/syscall-vars-audit.py STAP_TREE [TAP_TAPSET] [--summary]

STAP_TREE is a SystemTap checkout or its bare git directory (read at HEAD);
TAP_TAPSET defaults to tapsets/syscalls.tp beside this script. SystemTap's
variables are those its tracepoint alias (tp_syscall.NAME, else nd2_, nd1_,
dw_) assigns, macros expanded; tap's are those the generated alias assigns,
its __syscall.* parts included. Variables starting with "__" are SystemTap's
temporaries and left out. Conditionals on arch and systemtap_v keep the branch
for x86_64 and SystemTap 4.8 (clone2's stack_size is ia64's, fork's
clone_flags ... are --compatible=2.4's); any other keeps both."""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# SystemTap files whose macros and aliases matter here (x86_64)
DIRS = ("tapset", "tapset/linux", "tapset/linux/x86_64")


def stap_files(tree):
    """{path: text} of the .stp/.stpm files in DIRS, from a tree or a bare git dir."""
    out = {}
    if os.path.isdir(os.path.join(tree, "objects")):   # bare git directory
        git = ["git", "-C", tree]
        names = subprocess.run(git + ["ls-tree", "--name-only", "HEAD"] + [d + "/" for d in DIRS],
                               capture_output=True, text=True, check=True).stdout.split()
        for n in names:
            if n.endswith((".stp", ".stpm")):
                out[n] = subprocess.run(git + ["show", "HEAD:" + n], capture_output=True,
                                        text=True, check=True).stdout
    else:
        for d in DIRS:
            for n in sorted(os.listdir(os.path.join(tree, d))):
                if n.endswith((".stp", ".stpm")):
                    with open(os.path.join(tree, d, n)) as f:
                        out[f"{d}/{n}"] = f.read()
    return out


def strip_comments(text):
    """Drops #, // and /* */ comments outside strings (keeps %( %) intact)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif c == "#" or text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def balanced(text, i, open_, close):
    """The index just past the match of the opener at text[i]."""
    depth = 0
    while i < len(text):
        if text.startswith(open_, i):
            depth += 1
            i += len(open_)
        elif text.startswith(close, i):
            depth -= 1
            i += len(close)
            if depth == 0:
                return i
        elif text[i] == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
        else:
            i += 1
    return i


def top_level(body, token):
    """The index of token in body outside nested %( %), or -1."""
    depth, i = 0, 0
    while i < len(body):
        if body.startswith("%(", i):
            depth += 1
            i += 2
        elif body.startswith("%)", i):
            depth -= 1
            i += 2
        elif depth == 0 and body.startswith(token, i):
            return i
        else:
            i += 1
    return -1


# What tap stands for in SystemTap's conditionals: x86_64, SystemTap 4.8's
# language (tap's systemtap_v); other conditions (kernel_v, CONFIG_*) keep
# both branches.
KNOWN = {"arch": "x86_64", "systemtap_v": "4.8"}
COMPARE = re.compile(r'^\s*(\w+)\s*(==|!=|<=|>=|<|>)\s*"([^"]*)"\s*$')


def version(v):
    return tuple(int(x) for x in re.findall(r"\d+", v))


def evaluate(cond):
    """True, False, or None when the condition names something else."""
    if "||" in cond:
        parts = [evaluate(c) for c in cond.split("||")]
        return True if True in parts else None if None in parts else False
    if "&&" in cond:
        parts = [evaluate(c) for c in cond.split("&&")]
        return False if False in parts else None if None in parts else True
    m = COMPARE.match(cond)
    if not m or m.group(1) not in KNOWN:
        return None
    left, op, right = KNOWN[m.group(1)], m.group(2), m.group(3)
    if m.group(1) == "systemtap_v":
        left, right = version(left), version(right)
    return {"==": left == right, "!=": left != right, "<": left < right, "<=": left <= right,
            ">": left > right, ">=": left >= right}[op]


def resolve_conditionals(text):
    """Keeps the branch of a %( COND %? A %: B %) that applies to tap, both
    when COND is unknown; macro bodies (%( %) without %?) stay."""
    out, i = [], 0
    while True:
        j = text.find("%(", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        end = balanced(text, j, "%(", "%)")
        body = text[j + 2:end - 2]
        q = top_level(body, "%?")
        out.append(text[i:j])
        if q < 0:
            out.append("%(" + resolve_conditionals(body) + "%)")
        else:
            rest = body[q + 2:]
            e = top_level(rest, "%:")
            then, other = (rest[:e], rest[e + 2:]) if e >= 0 else (rest, "")
            which = evaluate(body[:q])
            kept = then if which else other if which is False else then + "\n" + other
            out.append(resolve_conditionals(kept))
        i = end


MACRO = re.compile(r"@define\s+(\w+)\s*(?:\(([^)]*)\))?\s*%\(")


def macros_of(text):
    out = {}
    for m in MACRO.finditer(text):
        end = balanced(text, m.end() - 2, "%(", "%)")
        params = [p.strip() for p in (m.group(2) or "").split(",") if p.strip()]
        out[m.group(1)] = (params, text[m.end():end - 2])
    return out


MACRO_USE = re.compile(r"@(\w+)")


def expand(text, macros, depth=0):
    """Expands @NAME and @NAME(args) uses of the macros, recursively."""
    if depth > 8:
        return text
    out, i = [], 0
    for m in MACRO_USE.finditer(text):
        if m.start() < i or m.group(1) not in macros:
            continue
        params, body = macros[m.group(1)]
        end = m.end()
        if params and end < len(text) and text[end] == "(":
            close = balanced(text, end, "(", ")")
            args = split_args(text[end + 1:close - 1])
            for p, a in zip(params, args):
                body = re.sub(r"@" + p + r"\b", lambda _, a=a: a, body)
            end = close
        out.append(text[i:m.start()])
        out.append(expand(body, macros, depth + 1))
        i = end
    out.append(text[i:])
    return "".join(out)


def split_args(s):
    args, depth, cur = [], 0, []
    for c in s:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            args.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    args.append("".join(cur))
    return args


PROBE = re.compile(r"\bprobe\s+([\w.,\s*?!]+?)\s*\+?=\s*([^{]*)\{")


def probes_of(text):
    """[(alias names, points, [bodies])] of the probe aliases in text."""
    out = []
    i = 0
    while True:
        m = PROBE.search(text, i)
        if not m:
            return out
        names = [n.strip() for n in m.group(1).split(",")]
        points = [p.strip().rstrip("?!").strip() for p in m.group(2).split(",") if p.strip()]
        bodies = []
        j = m.end() - 1
        while True:
            end = balanced(text, j, "{", "}")
            bodies.append(text[j + 1:end - 1])
            k = end
            while k < len(text) and text[k].isspace():
                k += 1
            if k < len(text) and text[k] == ",":   # a second body (SystemTap's epilogue)
                k += 1
                while k < len(text) and text[k].isspace():
                    k += 1
                if k < len(text) and text[k] == "{":
                    j = k
                    continue
            break
        out.append((names, points, bodies))
        i = end


ASSIGN = re.compile(r"(?<![\w$@.>])([A-Za-z_]\w*)\s*(?:=(?!=)|\.=|\+=|\|=|-=)")


def assigned(body):
    return {v for v in ASSIGN.findall(body) if not v.startswith("__")}


class Aliases:
    def __init__(self, texts, macros):
        self.table = {}
        for text in texts:
            for names, points, bodies in probes_of(text):
                body = expand("\n".join(bodies), macros)
                for n in names:
                    self.table.setdefault(n, []).append((points, body))

    def variables(self, name, seen=()):
        """What an alias assigns: its bodies and the aliases it is built on."""
        out = set()
        for points, body in self.table.get(name, []):
            out |= assigned(body)
            for p in points:
                if p in self.table and p not in seen:
                    out |= self.variables(p, seen + (name,))
        return out


def stap_aliases(tree):
    files = stap_files(tree)
    texts = {n: resolve_conditionals(strip_comments(t)) for n, t in files.items()}
    macros = {}
    for n in sorted(texts, key=lambda n: not n.endswith(".stpm")):   # shared macros first
        macros.update(macros_of(texts[n]))
    sysc = [t for n, t in texts.items() if "/sysc_" in n]
    return Aliases([MACRO.sub("", t) for t in sysc], macros)


def stap_variables(aliases, alias):
    """SystemTap's syscall.NAME[.return] as its tracepoint path defines it."""
    family, rest = alias.split(".", 1)
    for prefix in ("tp_syscall", "nd2_syscall", "nd1_syscall", "dw_syscall", "nd_syscall", "syscall"):
        v = aliases.variables(f"{prefix}.{rest}")
        if v:
            return v
    return set()


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    summary = "--summary" in sys.argv
    if not args:
        sys.exit(__doc__)
    tap_path = args[1] if len(args) > 1 else os.path.join(HERE, "..", "tapsets", "syscalls.tp")
    with open(tap_path) as f:
        tap = Aliases([f.read()], {})
    stap = stap_aliases(args[0])
    names = sorted(n for n in stap.table if n.startswith("syscall.") and n in tap.table)
    missing_aliases = missing_vars = 0
    for n in names:
        lack = sorted(stap_variables(stap, n) - tap.variables(n))
        if lack:
            missing_aliases += 1
            missing_vars += len(lack)
            if not summary:
                print(f"{n}: {' '.join(lack)}")
    print(f"{len(names)} aliases compared, {missing_aliases} lack variables, {missing_vars} variables missing")


if __name__ == "__main__":
    main()
