@TAP@ -x 1e30 -e "probe begin { exit() }"
