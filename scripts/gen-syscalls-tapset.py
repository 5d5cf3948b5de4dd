#!/usr/bin/env python3
"""Writes tapsets/syscalls.tp: syscall.NAME and syscall.NAME.return aliases over
the kernel's syscalls:sys_enter_NAME / sys_exit_NAME tracepoints, from their
tracefs format files, plus syscall_any over raw_syscalls and a number-to-name
table from <asm/unistd_64.h>.

    python3 scripts/gen-syscalls-tapset.py [EVENTS_DIR] > tapsets/syscalls.tp

Run it again on a newer kernel to pick up new syscalls; the output is a plain
tapset a user can read and edit."""
import os
import re
import sys

import syscalls_stap as stap

EVENTS = sys.argv[1] if len(sys.argv) > 1 else "/sys/kernel/tracing/events"
UNISTD = "/usr/include/x86_64-linux-gnu/asm/unistd_64.h"
FIELD = re.compile(r"field:(.*?)\s*([A-Za-z_][A-Za-z0-9_]*)(\[\d*\])?;\s*offset:(\d+);\s*size:(\d+);")


def fields(category, event):
    out = []
    with open(os.path.join(EVENTS, category, event, "format")) as f:
        for line in f:
            m = FIELD.search(line)
            if m and not m.group(2).startswith("common_") and m.group(2) != "__syscall_nr":
                out.append((m.group(1).strip(), m.group(2)))
    return out


def is_string(ctype):
    return ctype.replace(" ", "") == "constchar*"


def is_pointer(ctype):
    return "*" in ctype


KERNEL_NAMES = set()   # the syscalls the tracepoints have, set by main


def members(alias):
    """The kernel syscalls SystemTap's alias covers."""
    return sorted(k for k in KERNEL_NAMES if stap.ALIAS.get(k, k) == alias)


def name_value(name, at_return=False):
    """SystemTap's name: the alias's for a renamed syscall (newstat is "stat"),
    the syscall's own in a merged alias (pipe2 in syscall.pipe). At the
    return the flags are not the record's: RETURN_NAME, or the syscall's own."""
    if name in stap.NAME and not (at_return and "$" in stap.NAME[name]):
        return stap.NAME[name]
    alias = stap.ALIAS.get(name, name)
    return f'"{alias}"' if len(members(alias)) == 1 else f'"{name}"'


def field_var(name, ctype, arg):
    """The local a string field goes to: its own name unless that hides another."""
    if (name, arg) in stap.FIELD_VAR:
        return stap.FIELD_VAR[(name, arg)]
    return stap.STRING_NAME_FIELD if arg == "name" else arg


def entry_alias(name, args):
    """Locals in stap's order (name, the arguments, argstr) and argstr's pieces."""
    body = [f"name = {name_value(name)}"]
    pieces = []
    strings = set()
    for ctype, arg in args:
        if is_string(ctype):
            var = field_var(name, ctype, arg)
            body.append(f"{var} = user_string_quoted(${arg})")
            # SystemTap's user_string_nofault: "" when it cannot be read
            body.append(f'{var}_unquoted = user_string(${arg}, "")')
            strings.add(var)
            pieces.append(var)
        elif is_pointer(ctype):
            var = f"{arg}_uaddr"
            body.append(f"{var} = ${arg}")
            pieces.append(f"_tap_hex({var})")
        else:
            # SystemTap reads an fd as an int (__int32): -1, not 4294967295
            signed = ctype == "unsigned int" and arg in ("fd", "fildes", "oldfd", "newfd")
            body.append(f"{arg} = _tap_int32(${arg})" if signed else f"{arg} = ${arg}")
            if arg == "dfd" or arg.endswith("_dfd") or arg in ("olddfd", "newdfd"):
                pieces.append(f"_tap_dirfd_str({arg})")
            elif ctype.endswith("umode_t"):
                pieces.append(f"_tap_oct({arg})")
            elif arg == "flags" and name in ("open", "openat"):
                pieces.append(None)   # flags and mode together, below
            elif arg == "mode" and name in ("open", "openat"):
                pass
            else:
                pieces.append(f"_tap_dec({arg})")
    if name in ("open", "openat"):
        i = pieces.index(None)
        pieces[i] = "_tap_open_mode_str(flags, mode)"
        pieces = [p for p in pieces if not (p and p.startswith("_tap_oct(mode"))]
    if name in ("execve", "execveat"):
        # SystemTap's: the argument and environment strings, not their addresses
        body += ["args = _tap_argv(argv_uaddr, 0)", "env_str = _tap_argv(envp_uaddr, 0)"]
        pieces = [{"_tap_hex(argv_uaddr)": "args", "_tap_hex(envp_uaddr)": "env_str"}.get(p, p) for p in pieces]
    extra = EXTRA_NAMES.get(name, []) + stap.VARS.get(name, []) + stap.DECODED.get(name, [])
    for line in extra:
        body.append(line)
        # SystemTap's name for a string field (pathname for filename) has
        # its _unquoted twin too
        var, _, value = (p.strip() for p in line.partition("="))
        if value in strings:
            body.append(f"{var}_unquoted = {value}_unquoted")
            strings.add(var)
    argstr = ' . ", " . '.join(pieces) if pieces else '""'
    argstr = stap.ARGSTR.get(name, argstr)
    body.append(f"argstr = {argstr}")
    return body


# SystemTap's names where they differ from NAME_uaddr
EXTRA_NAMES = {
    "futex": ["futex_uaddr = uaddr_uaddr"],
    "sendto": ["s = fd", "buf_uaddr = buff_uaddr", "to_uaddr = addr_uaddr", "tolen = addr_len"],
    "sendmsg": ["s = fd"],
    "recvfrom": ["s = fd", "buf_uaddr = ubuf_uaddr", "len = size", "addrlen_uaddr = addr_len_uaddr"],
    "recvmsg": ["s = fd"],
}

# SystemTap's aliases of syscalls this architecture does not have (x86_64's
# libc sends with sendto): SystemTap's gate on a number that never comes
# (__NR_syscall_max + 1), so they never fire; here they are `never`, with
# SystemTap's variables (a kernel with the tracepoint gets the plain alias).
ABSENT = {
    "send": ["s", "buf_uaddr", "len", "flags", "flags_str", "buf"],
    "recv": ["s", "buf_uaddr", "len", "flags", "flags_str"],
}
ABSENT_STRINGS = ("flags_str", "buf")


def absent_aliases(name, variables):
    empty = '""'
    zeros = "".join(f"    {v} = {empty if v in ABSENT_STRINGS else 0}\n" for v in variables)
    return (f'probe {names_of(name)} = never {{\n    name = "{name}"\n{zeros}    argstr = ""\n}}\n'
            f'probe {names_of(name, ".return")} = never {{\n'
            f'    name = "{name}"\n    retval = 0\n    retstr = ""\n}}\n')


def syscall_names():
    table = {}
    try:
        with open(UNISTD) as f:
            for line in f:
                m = re.match(r"#define __NR_(\w+)\s+(\d+)", line)
                if m:
                    table[int(m.group(2))] = m.group(1)
    except OSError:
        pass
    return sorted(table.items())


def name_tree(items, indent):
    """A balanced if-tree: log2(n) comparisons per lookup."""
    pad = "    " * indent
    if len(items) == 1:
        nr, name = items[0]
        return [f'{pad}return nr == {nr} ? "{name}" : "sys_" . _tap_dec(nr)']
    mid = len(items) // 2
    return ([f"{pad}if (nr < {items[mid][0]}) {{"] + name_tree(items[:mid], indent + 1) +
            [f"{pad}}}"] + name_tree(items[mid:], indent))


def names_of(name, suffix=""):
    """SystemTap's nd_syscall and nd1_syscall (kprobe-based there) are the same
    aliases here, with the same variables."""
    return ", ".join(f"{family}.{name}{suffix}" for family in ("syscall", "nd_syscall", "nd1_syscall"))


def write_syscall(out, name, names_of_alias, entry_names, events):
    """syscall.NAME and its return over the syscall's two tracepoints."""
    args = fields("syscalls", f"sys_enter_{name}")
    body = "\n".join("    " + line for line in entry_alias(name, args))
    out.write(f'probe {entry_names} = kernel.trace("syscalls:sys_enter_{name}") {{\n{body}\n}}\n')
    if f"sys_exit_{name}" in events:
        lines = stap.RETURN_VARS.get(name, []) + [
            f"name = {stap.RETURN_NAME.get(name) or name_value(name, at_return=True)}",
            "retval = $ret", f"retstr = {stap.RETSTR.get(name, '_tap_retstr(retval)')}"]
        body = "\n".join("    " + line for line in lines)
        out.write(f'probe {names_of_alias(stap.ALIAS.get(name, name), ".return")} = '
                  f'kernel.trace("syscalls:sys_exit_{name}") {{\n{body}\n}}\n')


def write_merged(out, alias, events):
    """SystemTap's alias over several syscalls (pipe, pipe2): one
    __syscall.NAME alias each, so each sets its own variables."""
    parts = members(alias)
    for name in parts:
        write_syscall(out, name, lambda _, suffix="": f"__syscall.{name}{suffix}", f"__syscall.{name}", events)
    for suffix in ("", ".return"):
        points = ", ".join(f"__syscall.{name}{suffix} ?" for name in parts)
        out.write(f"probe {names_of(alias, suffix)} = {points} {{ }}\n")


def main():
    out = sys.stdout
    out.write("# Generated by scripts/gen-syscalls-tapset.py from the kernel's syscalls:*\n"
              "# tracepoint formats. syscall.NAME sets name, the arguments (strings quoted,\n"
              "# pointers as NAME_uaddr) and argstr; syscall.NAME.return sets name, retval\n"
              "# and retstr. nd_syscall.NAME and nd1_syscall.NAME are the same aliases.\n"
              "# Names and variables are SystemTap's (scripts/syscalls_stap.py): syscall.stat\n"
              "# is the kernel's newstat; syscall.pipe is __syscall.pipe and __syscall.pipe2.\n\n")
    events = sorted(os.listdir(os.path.join(EVENTS, "syscalls")))
    names = sorted(e[len("sys_enter_"):] for e in events if e.startswith("sys_enter_"))
    names = sorted(names + [n for n in ABSENT if n not in names])
    KERNEL_NAMES.update(n for n in names if f"sys_enter_{n}" in events)
    for alias in sorted({stap.ALIAS.get(n, n) for n in names}):
        if alias in ABSENT and not members(alias):
            out.write(absent_aliases(alias, ABSENT[alias]))
        elif len(members(alias)) == 1:
            write_syscall(out, members(alias)[0], names_of, names_of(alias), events)
        else:
            write_merged(out, alias, events)
    out.write('\nprobe syscall_any = kernel.trace("raw_syscalls:sys_enter") {\n'
              '    syscall_nr = $id\n    name = _tap_syscall_name(syscall_nr)\n}\n'
              'probe syscall_any.return = kernel.trace("raw_syscalls:sys_exit") {\n'
              '    syscall_nr = $id\n    name = _tap_syscall_name(syscall_nr)\n'
              '    retval = $ret\n    retstr = _tap_retstr(retval)\n}\n')
    table = syscall_names()
    out.write("\n# The name of syscall number nr (x86_64).\nfunction _tap_syscall_name:string(nr:long) {\n")
    if table:
        out.write("\n".join(name_tree(table, 1)) + "\n")
    else:
        out.write('    return "sys_" . _tap_dec(nr)\n')
    out.write("}\n")
    out.write('\n# SystemTap\'s syscall_table.stp: the name of syscall number nr (x86_64;\n'
              '# "sys_N" where SystemTap\'s table has none, which it gives as "").\n'
              'function syscall_name:string(nr:long) {\n    return _tap_syscall_name(nr)\n}\n')


main()
