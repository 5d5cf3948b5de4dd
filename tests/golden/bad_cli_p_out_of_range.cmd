@TAP@ -p 9 -e "probe begin { exit() }"
