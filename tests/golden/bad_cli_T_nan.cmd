@TAP@ -T nan -e "probe begin { exit() }"
