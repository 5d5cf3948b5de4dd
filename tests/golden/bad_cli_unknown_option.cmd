@TAP@ -j -e "probe begin { exit() }"
