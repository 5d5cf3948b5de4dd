@TAP@ -T -1 -e "probe begin { exit() }"
