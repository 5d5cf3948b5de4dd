# The README's one-liners, part 2 of 2 (users_readme_oneliners.sh)
bash users_readme_oneliners.sh @TAP@ 2 2
