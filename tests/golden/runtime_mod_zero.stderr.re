ERROR: division by 0 near operator '%' at runtime_mod_zero\.tp:4:21
WARNING: Number of errors: 1, skipped probes: 0(, lost events: 0)?
