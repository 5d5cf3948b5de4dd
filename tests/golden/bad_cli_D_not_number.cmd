@TAP@ -D MAXSTRINGLEN=big -e "probe begin { exit() }"
