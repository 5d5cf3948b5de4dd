ERROR: division by 0 near operator '/' at runtime_div_zero\.tp:5:20
WARNING: Number of errors: 1, skipped probes: 0(, lost events: 0)?
