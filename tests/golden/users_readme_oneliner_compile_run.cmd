# README one-liner: examples/callcount.tp compiled with -p4 -o, then run with
# --run: the same table as example_callcount (fib is hit 430 times in 20
# rounds: workload.c at -O2 turns one of its recursive calls into a loop).
bash users_readme_oneliner.sh @TAP@ compile_run
