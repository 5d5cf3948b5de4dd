# README one-liner: -L of the gc__* USDT marks of Debian 12's python3 (a link
# to python3.11): gc__start(generation) and gc__done(collected), by name.
bash users_readme_oneliner.sh @TAP@ list_marks
