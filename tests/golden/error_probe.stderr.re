ERROR: division by 0 near operator '/' at error_probe\.tp:5:14
WARNING: Number of errors: 1, skipped probes: 0(, lost events: 0)?
