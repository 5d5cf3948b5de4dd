@TAP@ -L
