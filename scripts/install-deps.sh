#!/usr/bin/env bash
# Installs what building and testing tap needs on Debian 12, through apt-get only.
# Idempotent and quiet: prints nothing unless something fails (then apt's log).
#
# LLVM: the build links the shared libLLVM-19.so (package libllvm19, pulled in by
# llvm-19-dev). Linking LLVM statically instead (`llvm-config-19 --link-static`)
# also needs its system libraries: zlib1g-dev, libzstd-dev, libxml2-dev, libz3-dev
# (a dependency of llvm-19-dev), plus libstdc++-12-dev (from g++) for the C++ runtime.
set -euo pipefail

packages=(
  cmake make gcc g++ pkg-config bison flex   # g++: the C++ test programs (tests/programs/*.cpp)
  rustc   # Debian's rustc (/usr/bin/rustc): the Rust test program (tests/programs/t_rust.rs)
  libbpf-dev llvm-19-dev libdw-dev libelf-dev
  libiberty-dev     # the C++ and Rust demangler (src/base/demangle.c)
  libcapstone-dev   # x86 decoding: which function entries move to their calls (sema/call_sites.c)
  zlib1g-dev libzstd-dev libffi-dev libxml2-dev libedit-dev libncurses-dev
  bpftool python3   # bpftool: bench/ sees where probes attach; python3: golden checks (*.py), pygc
  bpftrace time   # bench/quick (in ctest) runs bpftrace's reference rows and reads peak RSS with /usr/bin/time
  valgrind   # tests/valgrind.sh, run by tests/sanitize.sh
  gdb util-linux   # stack_cfi_*: gdb's backtrace is the reference; setarch (util-linux) turns ASLR off
  python3.11   # stack_cfi_python traces Debian's own python3 (no frame pointers)
  git xz-utils   # bench/safety-workloads.sh: git with zlib probed, xz with liblzma probed
  systemtap-sdt-dev   # sys/sdt.h for the USDT test programs
  dwz debuginfod   # golden/debuginfo_*: a dwz supplementary file, a real local debuginfod server
  libc6-dbg   # libc's separate debug info: -l/-L and $vars of libc functions (bench/RESULTS.md counts)
  clang-19 libclang-rt-19-dev   # the libFuzzer harnesses (tests/fuzz) that CI runs briefly
  iproute2 procps   # ip, sysctl: the network namespaces and veth pairs of golden/kernel_tapset_netfilter_forward, netdev
)
# The VM stage (tests/vm): Debian's kernels booted under QEMU with a busybox
# initramfs; their modules come compressed (xz, zstd). TAP_VM=0 skips it.
if [[ ${TAP_VM:-1} != 0 ]]; then
  packages+=(qemu-system-x86 busybox-static kmod cpio xz-utils zstd)
  # tests/vm/nfs-server.sh: a kernel NFS server in the guest for the nfsd tapset's cases
  # (exportfs, rpc.mountd, rpc.nfsd; brings nfs-common's mount.nfs and rpcbind)
  packages+=(nfs-kernel-server)
fi

if [[ $(id -u) -ne 0 ]]; then
  echo "install-deps.sh: must run as root (it calls apt-get install)" >&2
  exit 1
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$p")
done
((${#missing[@]})) || exit 0

export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Another apt run may hold the lock: wait for it rather than fail.
apt_opts=(-q -y -o DPkg::Lock::Timeout=600)
if ! { apt-get "${apt_opts[@]}" update && apt-get "${apt_opts[@]}" install --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "install-deps.sh: apt-get failed installing: ${missing[*]}" >&2
  exit 1
fi
# nfs-kernel-server is only for the VM guest: on a host with systemd its install enables and starts an
# NFS server and rpcbind (port 111 on every interface). Where this script installed it, they are
# stopped and disabled again (a server the machine ran before is left alone).
if [[ " ${missing[*]} " == *" nfs-kernel-server "* ]] && command -v systemctl >/dev/null &&
   [[ -d /run/systemd/system ]]; then
  systemctl disable --now nfs-server.service rpcbind.service rpcbind.socket >>"$log" 2>&1 || true
fi
