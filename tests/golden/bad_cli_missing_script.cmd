@TAP@ nosuch.tp
