# README one-liner: -L of every function of the workload: the functions of
# workload.c at their lines (alphabetical), with their parameters and the
# locals of their outermost scope and types as the DWARF spells them; _start
# has no DWARF. The build and source directories are replaced by "...".
bash users_readme_oneliner.sh @TAP@ list_functions | sed -E 's|process\("/[^"]*/examples/workload"\)|process(".../examples/workload")|; s|@/[^"]*/examples/workload\.c:|@.../examples/workload.c:|'
