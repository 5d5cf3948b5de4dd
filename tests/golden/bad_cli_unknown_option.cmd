@TAP@ -q -e "probe begin { exit() }"
