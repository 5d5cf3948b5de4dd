@TAP@ /proc/self/mem
