# traced_same.sh TAP SCRIPT PROGRAM [ARGS...]: runs PROGRAM untraced, then
# under `TAP -e SCRIPT -c PROGRAM`, and prints both exit statuses, whether
# the program's stdout and stderr were the same byte for byte, then the
# traced program's stdout and what the script printed (issue 20: tracing
# must not change what the traced program does).
tap=$1 script=$2
shift 2
dir=$(mktemp -d)
"$@" >$dir/plain.out 2>$dir/plain.err
echo "untraced exit $?"
"$tap" -o $dir/probes -e "$script" -c "$*" >$dir/traced.out 2>$dir/traced.err
echo "traced exit $?"
cmp -s $dir/plain.out $dir/traced.out && cmp -s $dir/plain.err $dir/traced.err && echo "same output" ||
  diff $dir/plain.out $dir/traced.out; diff $dir/plain.err $dir/traced.err
cat $dir/traced.out $dir/probes
rm -r $dir
