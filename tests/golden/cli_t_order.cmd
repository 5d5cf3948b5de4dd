# -t's times are consistent: for every line, 0 < min <= avg <= max, a single
# hit has min = avg = max and variance 0, several distinct times a variance > 0
# (loops of 0 to 12800 iterations); without -t no report, no tap_timing map.
@TAP@ -t -e 'global n
probe timer.ms(5) { for (i = 0; i < n * n * 800; i++) ; if (++n == 5) exit() }
probe end { }' | awk -F'[ ,:/]+' '/hits:/ { for (i = 1; i <= NF; i++) { if ($i == "hits") h = $(i+1); if ($i == "nsecs") { mn = $(i+1); av = $(i+2); mx = $(i+3) } if ($i == "variance") v = $(i+1) }
  sub("min", "", mn); sub("avg", "", av); sub("max", "", mx); mn += 0; av += 0; mx += 0; v += 0
  ok = mn > 0 && mn <= av && av <= mx && (h == 1 ? mn == mx && v == 0 : v > 0 && mx > mn)
  print $1, h, ok ? "consistent" : "INCONSISTENT: " $0 }'
@TAP@ -e 'probe begin { exit() }' | grep -c 'probe hit report'
@TAP@ -p3 -e 'probe begin { exit() }' | grep -c tap_timing
@TAP@ -t -p3 -e 'probe begin { exit() }' | grep -q tap_timing && echo "-t: tap_timing"
