# Every README one-liner is run by its own case (users_readme_oneliner_*), which
# checks what the one-liner itself prints: a new one-liner needs its entry in
# users_readme_oneliners.list and its case, and this count goes up.
bash users_readme_oneliner.sh @TAP@ --check
