# Issue 15 (6): 20 calls of compute() from main() in the -O2 workload (no frame
# pointers: main's rbp holds data) are one stack, counted 20, named main and
# compute; the walk stops at the first frame that is not a return address
# rather than keeping words of main's buffer as frames.
w=$(realpath @PROGRAMS@/../../examples)/workload; @TAP@ -c $w -e 'global s probe process("'$w'").function("compute") { s[ubacktrace()]++ } probe end { n = 0; foreach (k in s) n++; printf("%d stack(s)\n", n); foreach (k in s) { printf("count %d\n", s[k]); print_ustack(k) } }' | grep -v '^round\|^checksum' | sed -E "s|$(dirname $w)|EXAMPLES|; s/^ 0x[0-9a-f]+ : ([a-z_]+)\+0x[0-9a-f]+\/0x[0-9a-f]+ /  \1 /; s/^ 0x[0-9a-f]+ \[/  [/"
