w=@PROGRAMS@/../../examples/workload; @TAP@ ../../examples/watchloop.tp $w -c $w
