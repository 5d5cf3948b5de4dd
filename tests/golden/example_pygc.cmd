# examples/pygc.tp on Debian's python3 (USDT marks with semaphores): the
# script makes 10 reference cycles of 2 objects, and its gc.collect() (a
# generation-2 collection) reports freeing them: 20. Python also collects on
# its own (startup, exit), so the generation-2 row must show at least one run
# and at least those 20 objects.
@TAP@ ../../examples/pygc.tp -c '/usr/bin/python3 -S -c "import gc
class C: pass
for i in range(10):
    a = C(); b = C(); a.b = b; b.a = a
del a, b
print(\"gc.collect() freed\", gc.collect())"' | awk '
  /^gc.collect\(\) freed / { print; python = $3; next }
  NR == 2 { print; next }
  $1 == 2 { print "generation 2: " ($2 >= 1 ? "runs" : "no runs") ", freed " ($4 >= python ? "at least what gc.collect() reported" : $4); next }
  $1 ~ /^[01]$/ { next }
  { print "unexpected: " $0 }'
