semantic error: kernel function t_stop cannot be probed: [0-9]+ kernel symbols are named t_stop \(static functions of different files, or a variable\) and the kernel traces [0-9]+ of them: it attaches a name to the first it finds, which may be one it does not trace: identifier 'kernel' at kernel_function_shared_name\.tp:5:7
        source: probe kernel\.function\("t_stop"\) \{ exit\(\) \}
                      \^
