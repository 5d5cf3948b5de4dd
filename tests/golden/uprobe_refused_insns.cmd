# sema's instruction check agrees with the kernel's: t_insns has a function starting with each kind of instruction (insn_R_* refused, insn_ok_* taken). The same names come from sema's warnings and, with the check left to the kernel (-D TAP_DEBUG_NO_INSN_CHECK=1), from the kernel's refusals at attach, while t_insns maps the file (the kernel checks when it writes a breakpoint into a process).
P=@PROGRAMS@/t_insns
$P 600 & pid=$!
sleep 0.2
echo "sema:"
@TAP@ -p2 -e "probe process(\"$P\").function(\"insn_*\") {}" 2>&1 | grep WARNING | sed 's/.*function("\([A-Za-z_0-9]*\)@[^"]*"): /\1: /; s/; nor at its calls.*//; s/call 0x[0-9a-f]*/call TARGET/'
for env in "" TAP_NO_UPROBE_MULTI=1; do
  echo "kernel $env:"
  env $env @TAP@ -T 0.2 -D TAP_DEBUG_NO_INSN_CHECK=1 -e "probe process(\"$P\").function(\"insn_*\") {}" 2>&1 | sed 's/.*function("\([A-Za-z_0-9]*\)@[^"]*"): /\1: /' | sort
done
kill $pid
