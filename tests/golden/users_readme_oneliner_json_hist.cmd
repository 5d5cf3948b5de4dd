# README one-liner: @hist_linear(s, 0, 1000, 100) of 1000 randint(1000), as JSON:
# one record, the ten buckets 0-99 ... 900-999 in order, counts adding up to
# 1000, none empty (an empty one is a chance of 10 * 0.9^1000).
set -o pipefail; bash users_readme_oneliner.sh @TAP@ json_hist | python3 -c '
import json, sys
lines = sys.stdin.read().splitlines()
print(len(lines), "line(s)")
for line in lines:
    r = json.loads(line)
    data = r.pop("data")
    print(r)
    print("buckets:", " ".join("%d-%d" % (b["min"], b["max"]) for b in data))
    print("values:", sum(b["count"] for b in data), "empty buckets:", sum(b["count"] == 0 for b in data))'
