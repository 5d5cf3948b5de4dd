# The docs cannot drift from tap: every line of --dump-functions is in
# docs/language.md and every line of --dump-probe-types in docs/probes.md, as
# `code`; each catalogue is sorted, without duplicates, and not empty.
docs=../../docs; status=0
check() { # OPTION DOC
  local lines; lines=$(@TAP@ $1) || { echo "$1 failed"; status=1; return; }
  [[ -n $lines ]] || { echo "$1 printed nothing"; status=1; }
  [[ $lines == "$(LC_ALL=C sort -u <<<"$lines")" ]] || { echo "$1 is not sorted and unique"; status=1; }
  # one grep for all lines (a grep per line took most of the case's time)
  local quoted missing; quoted=$(sed 's/.*/`&`/' <<<"$lines")
  missing=$(grep -vxF -f <(grep -oF -f <(echo "$quoted") $2 | sort -u) <<<"$quoted")
  while IFS= read -r line; do
    [[ -z $line ]] || { echo "$2 does not document: ${line:1:-1}"; status=1; }
  done <<<"$missing"
  echo "$1: $(wc -l <<<"$lines" | awk '{ print ($1 > 10 ? "more than 10" : $1) }') lines, all documented in $(basename $2)"
}
check --dump-functions $docs/language.md
check --dump-probe-types $docs/probes.md
exit $status
