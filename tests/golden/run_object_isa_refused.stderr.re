ERROR: --run: the object uses BPF instruction set v3 \(kernel 5\.1 or later\) and kernel [^ ]+ takes v2: compile the script again on this kernel
