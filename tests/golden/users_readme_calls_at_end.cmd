cd @PROGRAMS@/../.. && @TAP@ -e 'global calls probe process("examples/workload").function("*") { calls[ppfunc()]++ }' -c examples/workload
