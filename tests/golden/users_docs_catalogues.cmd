# The docs cannot drift from tap: every line of --dump-functions is in
# docs/language.md and every line of --dump-probe-types in docs/probes.md, as
# `code`; each catalogue is sorted, without duplicates, and not empty.
docs=../../docs; status=0
check() { # OPTION DOC
  local lines; lines=$(@TAP@ $1) || { echo "$1 failed"; status=1; return; }
  [[ -n $lines ]] || { echo "$1 printed nothing"; status=1; }
  [[ $lines == "$(LC_ALL=C sort -u <<<"$lines")" ]] || { echo "$1 is not sorted and unique"; status=1; }
  while IFS= read -r line; do
    grep -qF "\`$line\`" $2 || { echo "$2 does not document: $line"; status=1; }
  done <<<"$lines"
  echo "$1: $(wc -l <<<"$lines" | awk '{ print ($1 > 10 ? "more than 10" : $1) }') lines, all documented in $(basename $2)"
}
check --dump-functions $docs/language.md
check --dump-probe-types $docs/probes.md
exit $status
