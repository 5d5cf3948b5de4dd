@TAP@ -s lots -e "probe begin { exit() }"
