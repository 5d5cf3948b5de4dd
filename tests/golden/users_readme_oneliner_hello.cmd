# README one-liner: hello world (users_readme_oneliners.list).
bash users_readme_oneliner.sh @TAP@ hello
