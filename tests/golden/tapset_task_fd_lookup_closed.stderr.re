ERROR: cannot find file in task near identifier 'error' at .*/task\.tp:[0-9]+:[0-9]+
WARNING: Number of errors: 1, skipped probes: 0(, lost events: 0)?
