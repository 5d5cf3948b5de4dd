# README one-liner: -L of the syscall.read alias: what it sets, with types.
bash users_readme_oneliner.sh @TAP@ list_alias
