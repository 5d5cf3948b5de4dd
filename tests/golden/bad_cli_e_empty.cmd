@TAP@ -e ''
