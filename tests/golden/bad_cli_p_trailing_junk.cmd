@TAP@ -p 4x -o /dev/null -e "probe begin { exit() }"
