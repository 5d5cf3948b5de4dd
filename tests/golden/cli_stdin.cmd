@TAP@ -
