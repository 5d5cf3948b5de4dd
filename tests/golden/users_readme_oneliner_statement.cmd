# README one-liner: main()'s locals each time line 61 of workload.c runs (the
# top of the loop), before the round adds to the checksum.
bash users_readme_oneliner.sh @TAP@ statement
