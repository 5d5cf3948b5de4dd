# --format=json for every kind of output, each line parsed by python3's json
# module (users_json_all_kinds.py): printf records (escapes included), log and
# linear histograms, globals printed at the end (number, string, statistic),
# arrays and statistic arrays; then lost events (a 1 MB ring flooded from
# begin); then a runtime error, which stays a text diagnostic on stderr while
# stdout stays JSON.
w=$(mktemp -d)
@TAP@ --format=json -e 'global x, name, a, st, s, h, lin
probe begin {
  x = 3; name = "q\"uote\\"; a["k", 1] = 5; a["j", 2] = 7; st <<< 7; st <<< 9; s["q"] <<< 4
  h <<< 1; h <<< 5; h <<< -2; lin <<< 12; lin <<< 75; lin <<< -1
  print(@hist_log(h)); print(@hist_linear(lin, 0, 50, 10))
  printf("tab\there %d \x01\n", 1); println("plain"); print("no newline"); exit()
}' >$w/kinds 2>$w/kinds.err; echo "kinds: status $?, stderr $(wc -c <$w/kinds.err) bytes"
@TAP@ --format=json -s 1 -e 'probe begin { for (i = 0; i < 100000; i++) printf("line %d padded to fill the ring buffer quickly\n", i); exit() }' >$w/lost 2>$w/lost.err
echo "lost: status $?; $(sed -E 's/[0-9]+$/N/' $w/lost.err)"
@TAP@ --format=json -e 'probe begin { printf("before\n"); x = 1 / (randint(1) * 0); printf("%d\n", x) } probe error { printf("in error\n") }' >$w/error 2>$w/error.err
echo "error: status $?"; cat $w/error.err
python3 users_json_all_kinds.py $w/kinds $w/error
python3 users_json_all_kinds.py $w/lost | awk "/^printf 'line [0-9]+ padded/ { n++; next } { print }
  END { print \"printf lines before the loss: \" (n > 100 ? \"more than 100\" : n) }"
rm -rf $w
