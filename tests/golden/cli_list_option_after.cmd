# issue 15, defect 9: options go anywhere; -l and -L take the probe point as their operand, so -v after -L is an option, not the probe point. Each order lists the same, with -v's address; `--` ends the options.
w=@PROGRAMS@/../../examples/workload
for order in "-L -v PP" "-L PP -v" "-v -L PP" "-l -v PP" "-l PP -v" "-v -l -- PP"; do
  echo "tap $order:"
  @TAP@ ${order/PP/"process(\"$w\").function(\"compute\")"} | sed 's|("[^"]*/workload")|("WORKLOAD")|; s|@[^"]*/examples/|@EXAMPLES/|; s/pc=0x[0-9a-f]*/pc=PC/'
done
