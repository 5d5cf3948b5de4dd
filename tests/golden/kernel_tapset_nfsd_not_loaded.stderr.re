semantic error: while resolving probe point: nfsd.proc3.lookup matched no probe point: probe point module\("nfsd"\).function\("nfsd3_proc_lookup"\): module nfsd is not loaded \(no /sys/module/nfsd\): identifier 'nfsd' at .*/nfsd.tp:[0-9]+:[0-9]+
        source: probe nfsd.proc.lookup = nfsd.proc4.lookup \?, nfsd.proc3.lookup, nfsd.proc2.lookup \? \{\}
 +\^
semantic error: probe alias nfsd.proc.entries cannot be used here \(its points failed above\): identifier 'nfsd' at kernel_tapset_nfsd_not_loaded.tp:4:7
        source: probe nfsd.proc.entries \{ println\(argstr\) \}
                      \^
