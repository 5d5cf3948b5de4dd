#!/usr/bin/env bash
# Runs one golden case: run-golden.sh TAP GOLDEN_DIR CASE PROGRAMS_DIR
# The case runs from inside GOLDEN_DIR (so messages name `CASE.tp`); the files
# that make a case are described in tests/README.md.
set -u
shopt -u patsub_replacement 2>/dev/null || true  # a literal "&" in paths stays literal

if (($# != 4)); then
  echo "usage: run-golden.sh TAP GOLDEN_DIR CASE PROGRAMS_DIR" >&2
  exit 2
fi
tap=$1 golden_dir=$2 case=$3 programs=$4
timeout_secs=${GOLDEN_TIMEOUT:-30}
# Under TCG in tests/vm a fork and exec costs about 150 ms, so this script forks as little as it can:
# bash's builtins over sed, grep, tr and command substitutions.
self=$0
[[ $self == /* ]] || self=$PWD/$self

cd "$golden_dir" || exit 1
# The cases listed in unprivileged.txt load no BPF (parse, sema and codegen errors, -p1..-p4,
# listings): they run as the user nobody, also when the suite runs as root, so each run shows
# that tap works there without root (where nobody cannot reach the tree, they run as root).
# Without root the other cases are not run (exit 77). GOLDEN_ANY_USER=1 runs any case as
# whoever runs it (to find the ones that belong in the list).
as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
# (A case with CASE.needs stays out of the list: its kernel checks need root.)
listed() { # NAME FILE: a line of FILE is NAME
  local line
  while IFS= read -r line; do [[ $line == "$1" ]] && return 0; done <"$2"
  return 1
}
if [[ ${GOLDEN_ANY_USER:-0} != 1 ]] && listed "$case" unprivileged.txt; then
  # (GOLDEN_NOBODY_CAN_RUN=1: a suite's runner checked that once for all its cases)
  if [[ $EUID -eq 0 ]] && { [[ ${GOLDEN_NOBODY_CAN_RUN:-} == 1 ]] ||
       "${as_nobody[@]}" test -r "$self" -a -x "$tap" -a -x "$programs" -a -r unprivileged.txt; }; then
    HOME=/nonexistent GOLDEN_ANY_USER=1 exec "${as_nobody[@]}" bash "$self" "$tap" "$PWD" "$case" "$programs"
  fi
elif [[ $EUID -ne 0 && ${GOLDEN_ANY_USER:-0} != 1 ]]; then
  echo "golden/$case: not run: it loads BPF programs, which needs root (only unprivileged.txt's cases run as a user)"
  exit 77
fi

# CASE.needs: kernel features the case needs, one a line (`fentry`, `kprobes`, `module:NAME`, `vmlinux-dwarf`, `netfilter-link`, `kprobe-multi`, `nfs-server`, `kallsyms-data`, `bpf-lsm`; `!fentry`: a kernel
# without it). On a kernel that does not have them the case is not run: exit 77, which ctest reports
# as skipped (SKIP_RETURN_CODE) and tests/vm/goldens.sh as not run, never as passed.
has_feature() { # FEATURE
  case $1 in
    fentry) "$tap" -p2 -e 'probe kernel.function("vfs_read") {}' 2>/dev/null | grep -q '/\* fentry \*/' ;;
    kprobes) [[ -e /sys/bus/event_source/devices/kprobe ]] ;;
    unprivileged) "${as_nobody[@]}" test -x "$tap" -a -x "$programs" ;;   # nobody can reach the tree
    module:*) [[ -e /sys/kernel/btf/${1#module:} ]] ;;   # the module is loaded, with its BTF
    vmlinux-dwarf) [[ -r /usr/lib/debug/boot/vmlinux-$(uname -r) ]] ;;   # the kernel's DWARF (linux-image-*-dbg)
    netfilter-link) grep -qa bpf_nf_ctx /sys/kernel/btf/vmlinux ;;   # BPF netfilter links (6.4): their context in BTF
    kprobe-multi) grep -qw register_fprobe /proc/kallsyms ;;   # kprobe_multi links need fprobe (6.12, not Debian's 6.1)
    kallsyms-data) grep -qm1 ' [db] ' /proc/kallsyms ;;   # data symbols in kallsyms (CONFIG_KALLSYMS_ALL): kernel.data("NAME")
    bpf-lsm) grep -qw bpf /sys/kernel/security/lsm 2>/dev/null ;;   # BPF LSM active (kernel.lsm): CONFIG_LSM or lsm= has "bpf"
    nfs-server) grep -qE '^CONFIG_NFSD=[ym]' "/boot/config-$(uname -r)" 2>/dev/null && command -v rpc.nfsd >/dev/null ;;   # tests/vm/nfs-server.sh can run one
    *) echo "golden/$case: unknown feature '$1' in $case.needs" >&2; exit 1 ;;
  esac
}
if [[ -f $case.needs ]]; then
  while read -r feature; do
    [[ -z $feature || $feature == \#* ]] && continue
    want=1
    [[ $feature == !* ]] && want=0 feature=${feature#!}
    has=0
    has_feature "$feature" && has=1
    if ((has != want)); then
      echo "golden/$case: not run: the kernel $( ((want)) && echo lacks || echo has) $feature ($case.needs)"
      exit 77
    fi
  done <"$case.needs"
fi

# CASE.timeout: the seconds a slow case may take where GOLDEN_TIMEOUT is less (kernel_tapset_nfsd
# starts and stops an NFS server in the VM). It stays under tests/vm's VM_STALL (GOLDEN_TIMEOUT + 60).
if [[ -f $case.timeout ]]; then
  read -r case_timeout <"$case.timeout"
  ((case_timeout > timeout_secs)) && timeout_secs=$case_timeout
fi

if [[ -f $case.cmd ]]; then
  command=$(<"$case.cmd")
elif [[ -f $case.tp ]]; then
  if [[ -f $case.args ]]; then command=$(<"$case.args"); else command='@TAP@ @SCRIPT@'; fi
else
  echo "golden/$case: neither $case.tp nor $case.cmd exists" >&2
  exit 1
fi
printf -v quoted '%q' "$tap" && command=${command//@TAP@/$quoted}
printf -v quoted '%q' "$case.tp" && command=${command//@SCRIPT@/$quoted}
printf -v quoted '%q' "$programs" && command=${command//@PROGRAMS@/$quoted}

if [[ -n ${GOLDEN_WORK_DIR:-} && -d $GOLDEN_WORK_DIR/$case ]]; then
  work=$GOLDEN_WORK_DIR/$case   # made (and removed) by the runner, with every case's at once: tests/vm
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
# Every case compiles from scratch: an empty compile cache of its own (the
# cache_* cases set their own). GOLDEN_CACHE_DIR instead names one cache for a
# suite's root-run cases, as tests/vm/goldens.sh's guests share one: under TCG
# what the cases have in common (function indexes, equal programs) is costly.
if [[ -n ${GOLDEN_CACHE_DIR:-} && $EUID -eq 0 && $case != cache_* ]]; then   # (cache_index counts its entries)
  export TAP_CACHE_DIR=$GOLDEN_CACHE_DIR
else
  export TAP_CACHE_DIR=$work/cache
fi
stdin=/dev/null
[[ -f $case.stdin ]] && stdin=$case.stdin
# A tap command with no shell syntax (most .tp cases) runs without a shell in between: one fork and
# exec less. (Only tap's: a first word such as `exit` or `cd` is the shell's own.)
simple=0
if [[ $command != *[\|\;\<\>\&\$\`\(\)\{\}\*\?\[\~\#]* && $command != *$'\n'* ]] &&
   eval "words=($command)" && ((${#words[@]})) && [[ ${words[0]} == "$tap" ]]; then
  simple=1
fi
started=$SECONDS
if ((simple)); then
  timeout -k 5 "$timeout_secs" "${words[@]}" <"$stdin" >"$work/stdout" 2>"$work/stderr"
else
  timeout -k 5 "$timeout_secs" bash -c "$command" <"$stdin" >"$work/stdout" 2>"$work/stderr"
fi
status=$?
elapsed=$((SECONDS - started))

failed=0
fail() { echo "golden/$case: $*"; failed=1; }

# An empty expectation (most cases' stdout or stderr) needs no cmp process.
same_bytes() { # EXPECTED ACTUAL
  if [[ ! -s $1 ]]; then [[ ! -s $2 ]]; else cmp -s "$1" "$2"; fi
}

# Exact comparison; a missing expectation file means "must be empty".
compare_exact() { # STREAM EXPECTED_FILE
  local expected=$2
  [[ -f $expected ]] || expected=/dev/null
  if ! same_bytes "$expected" "$work/$1"; then
    fail "$1 differs (--- expected, +++ actual):"
    diff -u --label "expected $1" --label "actual $1" "$expected" "$work/$1"
  fi
}

# Line N of the stream must match line N of the file as a whole-line extended
# regex, and the two must have the same number of lines, unless the file's last
# line is `...`: then the stream may go on with any lines after the ones matched.
compare_regex() { # STREAM REGEX_FILE
  local stream=$1
  shift
  local -a patterns lines
  mapfile -t patterns <"$1"
  mapfile -t lines <"$work/$stream"
  local ok=1 i n=${#patterns[@]}
  if ((n > 0)) && [[ ${patterns[n - 1]} == '...' ]]; then
    unset 'patterns[n - 1]'
    ((--n <= ${#lines[@]})) || ok=0
  else
    ((n == ${#lines[@]})) || ok=0
  fi
  for ((i = 0; ok && i < n; i++)); do
    [[ ${lines[i]} =~ ^(${patterns[i]})$ ]] || ok=0
  done
  if ((!ok)); then
    fail "$stream does not match $1 line by line (--- regexes, +++ actual):"
    diff -u --label "regexes $1" --label "actual $stream" "$1" "$work/$stream"
  fi
}

# 124 is also what a timeout inside the command exits with (users_readme_oneliner.sh has its own)
if ((status == 124 && elapsed >= timeout_secs)); then
  fail "timed out after ${timeout_secs}s: $command"
elif ((status == 124)); then
  fail "exit status 124 after ${elapsed}s: a timeout inside the command ran out"
fi
if [[ -f $case.stdout.re ]]; then
  compare_regex stdout "$case.stdout.re"
else
  compare_exact stdout "$case.stdout"
fi
if [[ -f $case.stderr.re ]]; then
  compare_regex stderr "$case.stderr.re"
else
  compare_exact stderr "$case.stderr"
fi
expected_status=0
[[ -f $case.exit ]] && read -r expected_status <"$case.exit"
if [[ $status != "$expected_status" ]]; then
  fail "exit status $status, expected $expected_status"
fi

if ((failed)); then
  echo "golden/$case: command was: $command"
  exit 1
fi
exit 0
