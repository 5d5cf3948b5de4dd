@TAP@ -T soon -e "probe begin { exit() }"
