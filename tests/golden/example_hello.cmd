@TAP@ ../../examples/hello.tp
