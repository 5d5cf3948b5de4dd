@TAP@ .
