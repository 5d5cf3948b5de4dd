semantic error: returnval is only available in \.return probes: identifier 'returnval' at users_returnval_errors\.tp:6:47
        source: probe process\(@1\)\.function\("twice"\) \{ println\(returnval\(\)\) \}
                                                              \^
semantic error: returnstr is only available in \.return probes: identifier 'returnstr' at users_returnval_errors\.tp:7:46
        source: probe process\(@1\)\.function\("fail"\) \{ println\(returnstr\(1\)\) \}
                                                             \^
semantic error: no debug information for twice in /.*/t_returns_nodebug: target variables need DWARF \(-g\); returnval\(\) reads the return register \(rax\) without it: identifier '\$return' at users_returnval_errors\.tp:8:54
        source: probe process\(@1\)\.function\("twice"\)\.return \{ println\(\$return\) \}
                                                                     \^
semantic error: @entry\(returnval\(\.\.\.\)\): the function has not returned at the call: identifier 'returnval' at users_returnval_errors\.tp:9:68
        source: probe process\(@1\)\.function\("twice"\)\.return \{ n = 1; println\(@entry\(returnval\(\)\) \+ @entry\(n\)\) \}
                                                                                   \^
semantic error: @entry saves what can be computed at the call \(target variables, arguments, function calls\), not script variables or assignments: identifier 'n' at users_returnval_errors\.tp:9:90
        source: probe process\(@1\)\.function\("twice"\)\.return \{ n = 1; println\(@entry\(returnval\(\)\) \+ @entry\(n\)\) \}
                                                                                                         \^
semantic error: @entry needs a value: exit\(\) returns none: identifier 'exit' at users_returnval_errors\.tp:10:61
        source: probe process\(@1\)\.function\("twice"\)\.return \{ println\(@entry\(exit\(\)\), @entry\(ubacktrace\(\)\)\) \}
                                                                            \^
semantic error: @entry\(ubacktrace\(\.\.\.\)\): stacks and symbols are read where the probe fires: identifier 'ubacktrace' at users_returnval_errors\.tp:10:77
        source: probe process\(@1\)\.function\("twice"\)\.return \{ println\(@entry\(exit\(\)\), @entry\(ubacktrace\(\)\)\) \}
                                                                                            \^
semantic error: returnval is only available in process, kernel function and syscall tracepoint probes \(not in functions\): identifier 'returnval' at users_returnval_errors\.tp:11:23
        source: function f\(\) \{ return returnval\(\) \}
                                      \^
