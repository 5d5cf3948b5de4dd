@TAP@ -p x -e "probe begin { exit() }"
