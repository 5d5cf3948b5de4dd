@TAP@ -D =5 -e "probe begin { exit() }"
