@TAP@ -x abc -e "probe begin { exit() }"
