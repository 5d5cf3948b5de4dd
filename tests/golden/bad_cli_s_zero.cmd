@TAP@ -s 0 -e "probe begin { exit() }"
