# Runs the README's one-liners: users_readme_oneliners.sh TAP PART PARTS runs
# lines PART, PART + PARTS, ... of the gallery (two golden cases share them:
# together they take longer than one case may), from a directory laid out as
# the source tree after the quick start (build/ and examples/). Each must exit
# 0 and print something; a failing line is printed whole.
tap=$1 part=$2 parts=$3
root=$(realpath ../..); build=$(dirname $tap); w=$(mktemp -d); trap 'rm -rf $w /tmp/callcount.bpf.o' EXIT
ln -s $build $w/build; ln -s $root/examples $w/examples
sed -n '/^## One-liners/,/^## /p' $root/README.md | sed -n '/^```sh$/,/^```$/p' | grep '^tap ' >$w/lines
n=0 ran=0 failed=0
while IFS= read -r line; do
  n=$((n + 1)); (( (n - part) % parts == 0 )) || continue
  ran=$((ran + 1))
  (cd $w && timeout 20 bash -c "${line//tap /$build/tap }" </dev/null >$w/out 2>$w/err); status=$?
  if [[ $status != 0 || ! -s $w/out ]]; then
    failed=$((failed + 1)); echo "FAILED ($status): $line"; head -3 $w/err
  fi
done <$w/lines
echo "part $part of $parts: $((ran >= 7 ? 7 : ran)) or more one-liners, $failed failed"
