@TAP@ -p
