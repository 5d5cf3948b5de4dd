w=@PROGRAMS@/../../examples/workload; @TAP@ ../../examples/traceargs.tp $w -c $w
