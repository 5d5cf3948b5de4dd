@TAP@ -D MAXACTION=-1 -e "probe begin { exit() }"
