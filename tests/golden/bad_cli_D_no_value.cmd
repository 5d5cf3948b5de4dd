@TAP@ -D X -e "probe begin { exit() }"
