ERROR: --run: the object uses BPF instruction set v4 \(kernel 6\.6 or later\) and kernel [^ ]+ takes v3: compile the script again on this kernel
