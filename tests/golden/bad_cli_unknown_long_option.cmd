@TAP@ --bogus -e "probe begin { exit() }"
