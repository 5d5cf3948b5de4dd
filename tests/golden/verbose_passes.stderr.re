Pass 1: parsed user script in [0-9]+ ms\.
Pass 2: analyzed script: 1 probes, 0 functions, 0 globals in [0-9]+ ms\.
Pass 3: translated to LLVM IR in [0-9]+ ms\.
Pass 4: compiled BPF object \([0-9]+ bytes, 1 probes, 1 programs\) in [0-9]+ ms\.
Pass 5: run completed in [0-9]+ ms\.
