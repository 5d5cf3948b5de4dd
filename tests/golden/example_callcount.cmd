w=@PROGRAMS@/../../examples/workload; @TAP@ ../../examples/callcount.tp $w '*' -c $w
