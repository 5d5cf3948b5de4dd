@TAP@ -p4 -o /nonexistent/dir/x.bpf.o -e "probe begin { exit() }"
