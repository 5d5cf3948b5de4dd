@TAP@ --format
