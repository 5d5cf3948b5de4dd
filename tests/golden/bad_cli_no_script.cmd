@TAP@
