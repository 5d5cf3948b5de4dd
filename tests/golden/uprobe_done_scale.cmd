# The issue's first "Done when" line as written: -e, a relative path, -c with an argument, a gcc -g -O2 program.
cd @PROGRAMS@ && @TAP@ -e 'probe process("./t_args_o2").function("scale") { printf("%d %d\n", $v, $factor) }' -c './t_args_o2 3'
