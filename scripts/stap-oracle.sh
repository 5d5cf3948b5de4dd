#!/usr/bin/env bash
# Runs Debian 12's own SystemTap (4.8) for a reference answer on what tap's front end should do:
#   scripts/stap-oracle.sh -p2 -e 'probe begin { x = 1 }'
# Passes 1 and 2 only (parse, elaborate: the warnings, the elided code, the globals printed at the
# end); nothing is compiled or loaded. The packages are fetched with apt-get download and unpacked
# under $STAP_ORACLE_DIR (default /var/tmp/tap-stap-oracle), never installed; stap gets a stand-in
# kernel build tree (a .config and a release), which -p2 of probes that need no kernel DWARF accepts.
set -euo pipefail
dir=${STAP_ORACLE_DIR:-/var/tmp/tap-stap-oracle}
if [[ ! -x $dir/root/usr/bin/stap ]]; then
  mkdir -p "$dir/debs"
  (cd "$dir/debs" && apt-get download systemtap systemtap-common >/dev/null 2>&1) ||
    { echo "stap-oracle: apt-get download systemtap systemtap-common failed" >&2; exit 2; }
  for deb in "$dir"/debs/*.deb; do dpkg -x "$deb" "$dir/root"; done
fi
kb=$dir/kernel-build
if [[ ! -f $kb/.config ]]; then
  mkdir -p "$kb/include/config"
  { cat "/boot/config-$(uname -r)" 2>/dev/null || zcat /proc/config.gz 2>/dev/null || echo "CONFIG_HZ=250"; } >"$kb/.config"
  uname -r >"$kb/include/config/kernel.release"
  : >"$kb/Module.symvers"
fi
export SYSTEMTAP_TAPSET=$dir/root/usr/share/systemtap/tapset SYSTEMTAP_RUNTIME=$dir/root/usr/share/systemtap/runtime
"$dir/root/usr/bin/stap" -r "$kb" "$@" 2> >(grep -v 'Kernel function symbol table missing' >&2)
