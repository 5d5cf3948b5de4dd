@TAP@ - </dev/null
