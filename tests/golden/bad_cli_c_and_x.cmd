@TAP@ -c true -x 1 -e "probe begin { exit() }"
