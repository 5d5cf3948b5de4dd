# README one-liner: read sizes by descriptor of `wc -c /etc/hostname`, a
# statistic array no probe reads: printed when the session ends as
# `r[3] @count=... @min=... @max=... @sum=... @avg=...` (spec/output.md). fd 3
# is read three times: the loader reads libc's ELF header (832 bytes), then wc
# reads the small file with its 4096-byte buffer until a read returns nothing.
bash users_readme_oneliner.sh @TAP@ read_sizes | sed -E 's/^[0-9]+ \/etc\/hostname$/SIZE \/etc\/hostname/'
