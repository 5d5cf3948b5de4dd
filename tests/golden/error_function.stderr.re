ERROR: something broke( near .*)?
WARNING: Number of errors: 1, skipped probes: 0(, lost events: 0)?
