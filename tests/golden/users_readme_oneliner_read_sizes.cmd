# README one-liner: read sizes by descriptor of `wc -c /etc/hostname`, a
# statistic array no probe reads: printed when the session ends as
# `r[FD] @count=N @min=.. @max=.. @sum=.. @avg=..` (spec/output.md). wc takes
# the size from fstat and reads nothing; what fd 3 reads is ld.so's read of
# libc's ELF header (832 bytes, the smallest), then, in a UTF-8 locale with
# the locales package, libc's reads of locale.alias: so only fd 3 is there,
# with @min=832, and the numbers must agree (avg = sum / count, min <= avg <=
# max, count x min <= sum <= count x max).
bash users_readme_oneliner.sh @TAP@ read_sizes | awk '
  /^[0-9]+ \/etc\/hostname$/ { print "SIZE /etc/hostname"; next }
  /^r\[[0-9]+\] @count=[0-9]+ @min=[0-9]+ @max=[0-9]+ @sum=[0-9]+ @avg=[0-9]+$/ {
    for (i = 2; i <= 6; i++) { split($i, kv, "="); v[kv[1]] = kv[2] + 0 }
    agree = v["@count"] >= 1 && int(v["@sum"] / v["@count"]) == v["@avg"] && v["@min"] <= v["@avg"] && v["@avg"] <= v["@max"] &&
      v["@count"] * v["@min"] <= v["@sum"] && v["@sum"] <= v["@count"] * v["@max"]
    print $1 " @min=" v["@min"] ", " (agree ? "count, max, sum and avg agree" : "numbers disagree: " $0); next
  }
  { print "unexpected: " $0 }'
