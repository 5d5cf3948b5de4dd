# README one-liner: greet()'s arguments, a string read from the process. The
# workload greets names[round % 4] into a 64-byte buffer, 20 rounds.
bash users_readme_oneliner.sh @TAP@ greet_args
