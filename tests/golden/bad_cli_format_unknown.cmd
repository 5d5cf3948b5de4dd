@TAP@ --format=xml -e "probe begin { exit() }"
