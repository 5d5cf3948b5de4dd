# users_readme_oneliner.sh TAP NAME runs the README one-liner that
# users_readme_oneliners.list names NAME, from a directory laid out as the
# source tree after the quick start (build/ and examples/), `tap` being TAP:
# its stdout and stderr pass through, its exit status is this script's.
# users_readme_oneliner.sh TAP --check checks instead that each line of the
# gallery is named by exactly one entry of the list, and each entry has its
# golden case.
shopt -u patsub_replacement 2>/dev/null || true  # a literal "&" in paths stays literal
tap=$1 name=$2
root=$(realpath ../..)
gallery() { sed -n '/^## One-liners/,/^## /p' $root/README.md | sed -n '/^```sh$/,/^```$/p' | grep '^tap '; }
entries() { grep -v '^#' users_readme_oneliners.list; }

if [[ $name == --check ]]; then
  lines=0 bad=0
  while IFS= read -r line; do
    lines=$((lines + 1)) named=()
    while IFS=$'\t' read -r entry text; do
      [[ $line == *"$text"* ]] && named+=("$entry")
    done < <(entries)
    if ((${#named[@]} != 1)); then bad=1; echo "named by ${#named[@]} entries (${named[*]}): $line"; fi
  done < <(gallery)
  while IFS=$'\t' read -r entry text; do
    [[ -f users_readme_oneliner_$entry.cmd ]] || { bad=1; echo "no case users_readme_oneliner_$entry.cmd"; }
  done < <(entries)
  ((bad)) || echo "$lines one-liners, each run by its own case"
  exit $bad
fi

text=$(entries | awk -F '\t' -v n="$name" '$1 == n { print $2 }')
[[ -n $text ]] || { echo "users_readme_oneliner.sh: no entry $name in users_readme_oneliners.list" >&2; exit 2; }
line=$(gallery | grep -F -- "$text")
[[ -n $line && $line != *$'\n'* ]] || { echo "users_readme_oneliner.sh: not one one-liner contains: $text" >&2; exit 2; }
w=$(mktemp -d); trap 'rm -rf $w' EXIT
line=${line//\/tmp\//$w\/}   # a file the line writes in /tmp goes to its own directory: cases run side by side
ln -s $(dirname $tap) $w/build; ln -s $root/examples $w/examples
# As in a user's shell, only 0, 1 and 2 are open: a descriptor the test runner
# leaks would shift the one-liner's (read_sizes counts by descriptor).
exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
# Its own time limit, 10 s short of the case's (run-golden.sh: 30 s here, 240 s in 6.12's VM, where beside
# 6.1's a syscall_any one-liner can take more than 20 s): a one-liner that hangs still shows what it printed.
(cd $w && timeout $((${GOLDEN_TIMEOUT:-30} - 10)) bash -c "${line//tap /$tap }" </dev/null)
