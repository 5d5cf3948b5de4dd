@TAP@ -D MAXACTION -e "probe begin { exit() }"
