@TAP@ -p 0 -e "probe begin { exit() }"
